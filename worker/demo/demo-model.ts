import {
  type ChatChunk,
  type ChatCompletion,
  type ChatMessage,
  type ToolCall,
  type Usage,
} from "../../shared/chat/chat.ts";
import type { DemoScript, DemoStep } from "./demo-script.ts";
import { contentText } from "../../shared/chat/message-content.ts";

type Msg = Omit<ChatMessage, "id">;

export interface DemoRequest {
  messages: readonly Msg[];
  /** Names of the tools the request offers; a model cannot call a tool it was not given. */
  tools?: readonly string[];
  /** A tool the request forces (`tool_choice`). */
  forcedTool?: string;
}

/**
 * Pure script engine: no I/O, no Workers types, so the Node fake upstream can reuse it. Like a
 * model, it reads only the request: the visitor's latest message (and, where a turn asks, the
 * system prompt) picks the turn, the number of
 * assistant messages since then picks the step, a forced `classify_intent` gets the turn's intent,
 * and steps calling tools the request does not offer are skipped (the quick path offers none).
 */
export function pickDemoStep(script: DemoScript, req: DemoRequest): DemoStep {
  const { messages } = req;
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    // Text-ReAct observations come back as user messages; they continue the turn, not start one.
    if (messages[i].role === "user" && !contentText(messages[i].content).startsWith("Observation:")) {
      lastUser = i;
      break;
    }
  }
  const userText = lastUser >= 0 ? contentText(messages[lastUser].content).toLowerCase() : "";
  const chinese = writesChinese(messages);
  const systemText = messages[0]?.role === "system" ? contentText(messages[0].content).toLowerCase() : "";
  const last = messages[lastUser]?.content;
  const photo = Array.isArray(last) && last.some((p) => p.type === "image_url");
  const applies = (t: DemoScript["turns"][number]) =>
    t.when?.some((w) => userText.includes(w)) && (!t.system || t.system.some((f) => systemText.includes(f)));
  // In the script's order: a photo turn after the crisis turns, before those matched by words.
  const turn = script.turns.find((t) => (t.photo ? photo : applies(t))) ?? script.fallback;
  const forced = req.forcedTool && ((chinese && script.forcedZh?.[req.forcedTool]) || script.forced?.[req.forcedTool]);
  if (forced) return { toolCalls: [{ name: req.forcedTool!, arguments: forced }] };
  if (req.forcedTool === "rule_verdict") {
    return {
      toolCalls: [{ name: "rule_verdict", arguments: { pass: true, reason: "scripted demo: the check passes" } }],
    };
  }
  if (req.forcedTool === "classify_intent") {
    const intent = turn.intent ?? "unclear";
    return {
      toolCalls: [
        {
          name: "classify_intent",
          arguments: { intent, confidence: turn.intent ? 0.92 : 0.4, reason: "scripted demo" },
        },
      ],
    };
  }
  const offered = new Set(req.tools ?? []);
  const turnSteps = (chinese && turn.zh) || turn.steps;
  const usable = turnSteps.filter((s) => (s.toolCalls ?? []).every((c) => offered.has(c.name)));
  const steps = usable.length ? usable : [{ content: turnSteps.at(-1)?.content ?? "" }];
  const answered = messages.slice(lastUser + 1).filter((m) => m.role === "assistant").length;
  return steps[Math.min(answered, steps.length - 1)];
}

const HAN = /[\u3400-\u9fff]/;
const LETTER = /[\p{L}]/u;

/**
 * Whether the visitor writes Chinese, as a model judges the language to answer in: their latest
 * message with words in it (a photo alone, a number or a tool's observation says nothing), read
 * from the newest back; Chinese when it has Han characters.
 */
export function writesChinese(messages: readonly Msg[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role !== "user") continue;
    const text = contentText(messages[i].content);
    if (text.startsWith("Observation:") || !LETTER.test(text)) continue;
    return HAN.test(text);
  }
  return false;
}

/** Splits text into small pieces the way a model streams tokens: words, and CJK characters one by one. */
export function tokenize(text: string): string[] {
  return text.match(/[\u3000-\u9fff\uff00-\uffef]|[^\s\u3000-\u9fff\uff00-\uffef]+\s*|\s+/g) ?? [];
}

/** Rough token count for usage figures (about 4 characters a token, a CJK character each). */
export function countTokens(text: string): number {
  const cjk = (text.match(/[\u3000-\u9fff]/g) ?? []).length;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

export function stepToolCalls(step: DemoStep, seed: string): ToolCall[] {
  return (step.toolCalls ?? []).map((c, i) => ({
    id: `call_${seed}_${i}`,
    type: "function" as const,
    function: { name: c.name, arguments: JSON.stringify(c.arguments) },
  }));
}

function usageFor(messages: ReadonlyArray<Omit<ChatMessage, "id">>, step: DemoStep): Usage {
  const prompt = messages.reduce((n, m) => n + countTokens(contentText(m.content)), 0);
  const completion = countTokens(step.content ?? "") + countTokens(JSON.stringify(step.toolCalls ?? []));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** The chunks of a streamed reply for one step, usage last (as with `stream_options.include_usage`). */
export function demoChunks(
  step: DemoStep,
  opts: { id: string; model: string; messages: ReadonlyArray<Omit<ChatMessage, "id">> },
): ChatChunk[] {
  const base = { id: opts.id, object: "chat.completion.chunk", model: opts.model };
  const chunks: ChatChunk[] = [
    { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] },
  ];
  for (const piece of tokenize(step.content ?? "")) {
    chunks.push({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
  }
  const calls = stepToolCalls(step, opts.id);
  calls.forEach((call, index) => {
    chunks.push({
      ...base,
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              { index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } },
            ],
          },
          finish_reason: null,
        },
      ],
    });
    chunks.push({
      ...base,
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index, function: { arguments: call.function.arguments } }] },
          finish_reason: null,
        },
      ],
    });
  });
  chunks.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: calls.length ? "tool_calls" : "stop" }] });
  chunks.push({ ...base, choices: [], usage: usageFor(opts.messages, step) });
  return chunks;
}

export function demoCompletion(
  step: DemoStep,
  opts: { id: string; model: string; messages: ReadonlyArray<Omit<ChatMessage, "id">> },
): ChatCompletion {
  const calls = stepToolCalls(step, opts.id);
  return {
    id: opts.id,
    object: "chat.completion",
    model: opts.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: step.content ?? null, ...(calls.length ? { tool_calls: calls } : {}) },
        finish_reason: calls.length ? "tool_calls" : "stop",
      },
    ],
    usage: usageFor(opts.messages, step),
  };
}

/** Server-sent-event framing of one chunk, and the terminator OpenAI sends. */
export const sseData = (chunk: unknown): string => `data: ${JSON.stringify(chunk)}\n\n`;
export const SSE_DONE = "data: [DONE]\n\n";
