import type { ProviderProfileInput } from "../../../shared/config/provider-config.ts";

/**
 * Provider fixtures: what each provider's documentation says its streams and errors look like,
 * written as the options of one builder so that each provider's file is its differences, each with
 * the page it came from. The fake upstream replays them byte for byte (test/helpers/fake-upstream.ts).
 */

export const CASES = [
  "text",
  "tool call",
  "parallel tools",
  "reasoning",
  "usage",
  "429 + Retry-After",
  "5xx",
  "cut stream",
] as const;
/** The matrix's cases, and a DeepSeek-style step that thinks and then calls a tool (the replay test). */
export type CaseName = (typeof CASES)[number] | "thinking tool call";

/** One reply as the fake sends it: SSE events (raw blocks, comments included), or an error body. */
export interface FixtureReply {
  status: number;
  headers: Record<string, string>;
  /** Raw SSE blocks, each ending in a blank line. */
  events?: string[];
  body?: string;
  /** Destroy the socket after this many events (a cut stream). */
  cutAfter?: number;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  [k: string]: unknown;
}

export interface ProviderStyle {
  id: string;
  name: string;
  /** Where each shape below came from: the provider's own pages (and issues that show it in the wild). */
  sources: string[];
  /** The profile a site owner writes for it (the tests fill in baseUrl). */
  profile: Omit<ProviderProfileInput, "baseUrl" | "id">;
  model: string;
  /** Fields on every chunk besides id, object, model, choices. */
  envelope?: Record<string, unknown>;
  /** Events before the first delta (Azure's prompt filter results, a keep-alive comment). */
  preamble?: unknown[];
  /** Fields on every choice besides index, delta, finish_reason (logprobs, Azure's filter results). */
  choiceExtra?: Record<string, unknown>;
  /** The first delta's role: OpenAI sends `{ role, content: "" }`. */
  roleDelta?: Record<string, unknown>;
  /** Where usage comes: a chunk of its own, the last choice's chunk, inside the choice (Moonshot), or not at all. */
  usage: "own-chunk" | "last-chunk" | "in-choice" | "none";
  tools: "openai" | "whole" | "no-index" | "object-args";
  /** Finish reason of a tool-call reply (Gemini says `stop`). */
  toolFinish?: string;
  reasoning: "reasoning_content" | "reasoning" | "think-tags" | "thought-tags" | "hidden";
  /** Usage extras, e.g. `completion_tokens_details.reasoning_tokens`. */
  usageExtra?: Record<string, unknown>;
  rateLimit: { headers: Record<string, string>; body: unknown };
  serverError: { status: number; body: unknown };
  /** Comment lines the provider writes while it works (DeepSeek's keep-alive, OpenRouter's processing). */
  comment?: string;
}

export const ANSWER = "It sounds like **contact eczema**. Keep the area clean and dry.";
export const THOUGHT = "The rash is red and itchy after a new soap: likely contact dermatitis, not infection.";
export const USAGE = { prompt_tokens: 57, completion_tokens: 23, total_tokens: 80 };
export const CALLS = [
  { name: "knowledge_search", args: { query: "contact eczema care" } },
  { name: "web_search", args: { query: "eczema soap allergy" } },
];

const block = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
const DONE = "data: [DONE]\n\n";

/** Words of a text, as a provider streams them (about a token each, spaces kept). */
const pieces = (text: string) => text.match(/\S+\s*/g) ?? [];

export function buildCase(s: ProviderStyle, c: CaseName): FixtureReply {
  if (c === "429 + Retry-After") {
    return {
      status: 429,
      headers: { "content-type": "application/json", ...s.rateLimit.headers },
      body: JSON.stringify(s.rateLimit.body),
    };
  }
  if (c === "5xx")
    return {
      status: s.serverError.status,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(s.serverError.body),
    };
  const id = `${s.id}-reply-${c.replace(/\W+/g, "-")}`;
  const chunk = (
    delta: Record<string, unknown>,
    finish: string | null = null,
    extra: Record<string, unknown> = {},
  ) => ({
    id,
    object: "chat.completion.chunk",
    created: 1_763_900_000,
    model: s.model,
    ...s.envelope,
    choices: [{ index: 0, delta, finish_reason: finish, ...s.choiceExtra, ...extra }],
  });
  const usage = { ...USAGE, ...s.usageExtra };
  const events: unknown[] = [...(s.preamble ?? [])];
  const deltas: Array<Record<string, unknown>> = [];
  if ((c === "reasoning" || c === "thinking tool call") && s.reasoning !== "hidden") {
    if (s.reasoning === "reasoning_content" || s.reasoning === "reasoning") {
      for (const p of pieces(THOUGHT))
        deltas.push({ [s.reasoning]: p, content: s.reasoning === "reasoning_content" ? null : "" });
    } else {
      const [open, close] = s.reasoning === "think-tags" ? ["<think>", "</think>"] : ["<thought>", "</thought>"];
      // Tags cut across chunks, as a tokenizer does: "<th" + "ink>".
      const text = `${open}\n${THOUGHT}\n${close}\n\n`;
      for (let i = 0; i < text.length; i += 5) deltas.push({ content: text.slice(i, i + 5) });
    }
  }
  let finish = "stop";
  if (c === "tool call" || c === "parallel tools" || c === "thinking tool call") {
    const calls = c === "parallel tools" ? CALLS : CALLS.slice(0, 1);
    calls.forEach((call, i) => deltas.push(...toolDeltas(s, call, i)));
    finish = s.toolFinish ?? "tool_calls";
  } else for (const p of pieces(ANSWER)) deltas.push({ content: p });
  deltas.forEach((d, i) => events.push(chunk(i === 0 ? { ...s.roleDelta, ...d } : d)));
  if (s.comment) events.splice(1, 0, s.comment);
  if (s.usage === "last-chunk") events.push({ ...chunk({}, finish), usage });
  else if (s.usage === "in-choice") events.push(chunk({}, finish, { usage }));
  else events.push(chunk({}, finish));
  if (s.usage === "own-chunk")
    events.push({
      id,
      object: "chat.completion.chunk",
      created: 1_763_900_000,
      model: s.model,
      ...s.envelope,
      choices: [],
      usage,
    });
  const blocks = events.map((e) => (typeof e === "string" ? e : block(e)));
  blocks.push(DONE);
  const reply: FixtureReply = {
    status: 200,
    headers: { "content-type": "text/event-stream; charset=utf-8" },
    events: blocks,
  };
  if (c === "cut stream") reply.cutAfter = Math.floor(blocks.length / 2);
  return reply;
}

function toolDeltas(s: ProviderStyle, call: (typeof CALLS)[number], index: number): Array<Record<string, unknown>> {
  const id = `call_${s.id.replace(/\W/g, "")}_${index}`;
  const json = JSON.stringify(call.args);
  switch (s.tools) {
    case "whole":
      return [{ tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: json } }] }];
    case "no-index":
      return [{ tool_calls: [{ id, type: "function", function: { name: call.name, arguments: json } }] }];
    case "object-args":
      return [{ tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: call.args } }] }];
    default: {
      const cut = Math.floor(json.length / 2);
      return [
        { tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }] },
        { tool_calls: [{ index, function: { arguments: json.slice(0, cut) } }] },
        { tool_calls: [{ index, function: { arguments: json.slice(cut) } }] },
      ];
    }
  }
}
