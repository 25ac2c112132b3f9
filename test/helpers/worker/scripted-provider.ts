import { vi } from "vitest";

/** The provider's base URL in tests that stub `fetch` with a scripted provider. */
export const PROVIDER_URL = "https://provider.test/v1";

/** One scripted completion: text, tool calls (arguments as JSON text), in that order in a stream. */
export interface ScriptedStep {
  content?: string;
  toolCalls?: Array<{ name: string; arguments: string; id?: string }>;
  usage?: [prompt: number, completion: number];
}

export interface ProviderRequest {
  path: string;
  body: any;
  at: number;
}

/** What the site's moderation route answers (the guard's classifier), and after how long. */
export interface ScriptedModeration {
  flagged: string[];
  delayMs: number;
}

function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new DOMException("The operation was aborted", "AbortError"));
    });
  });
}

/** A step as a provider streams it: a role chunk, the text in two pieces, each call's name, its arguments in two. */
export function streamedStep(step: ScriptedStep, id: string): unknown[] {
  const head = { id, object: "chat.completion.chunk", created: 1, model: "m" };
  const chunk = (delta: object, finish: string | null = null) => ({
    ...head,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const out: unknown[] = [chunk({ role: "assistant", content: "" })];
  const text = step.content ?? "";
  if (text) out.push(chunk({ content: text.slice(0, 5) }), chunk({ content: text.slice(5) }));
  (step.toolCalls ?? []).forEach((c, index) => {
    const callId = c.id ?? `call_${id}_${index}`;
    const half = Math.floor(c.arguments.length / 2);
    out.push(
      chunk({ tool_calls: [{ index, id: callId, type: "function", function: { name: c.name, arguments: "" } }] }),
      chunk({ tool_calls: [{ index, function: { arguments: c.arguments.slice(0, half) } }] }),
      chunk({ tool_calls: [{ index, function: { arguments: c.arguments.slice(half) } }] }),
    );
  });
  out.push(chunk({}, step.toolCalls?.length ? "tool_calls" : "stop"));
  const [p, c] = step.usage ?? [10, 5];
  out.push({ ...head, choices: [], usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c } });
  return out;
}

function jsonStep(step: ScriptedStep, id: string): unknown {
  const calls = (step.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_${id}_${i}`,
    type: "function",
    function: { name: c.name, arguments: c.arguments },
  }));
  const [p, c] = step.usage ?? [10, 5];
  return {
    id,
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: step.content ?? null, ...(calls.length ? { tool_calls: calls } : {}) },
        finish_reason: calls.length ? "tool_calls" : "stop",
      },
    ],
    usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c },
  };
}

/**
 * A provider stubbed on `fetch`, as a test scripts it: each chat request (its body, its index among
 * them) gets a step, streamed or as JSON as the request asks; `/moderations` answers as `moderation`
 * says (the guard's classifier), honouring the request's abort. Every request is logged with when it came.
 */
export function scriptedProvider(
  answer: (body: any, index: number) => ScriptedStep,
  moderation: (input: string) => ScriptedModeration = () => ({ flagged: [], delayMs: 0 }),
) {
  const requests: ProviderRequest[] = [];
  let chats = 0;
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!url.href.startsWith(PROVIDER_URL)) throw new Error(`unexpected fetch of ${url.href}`);
    const body = JSON.parse(String(init?.body ?? "{}"));
    const path = url.pathname.replace(/^\/v1/, "");
    requests.push({ path, body, at: Date.now() });
    if (path === "/moderations") {
      const m = moderation(String(body.input));
      await sleep(m.delayMs, init?.signal);
      const categories = Object.fromEntries(m.flagged.map((k) => [k, true]));
      return Response.json({ results: [{ flagged: m.flagged.length > 0, categories }] });
    }
    const index = chats++;
    const step = answer(body, index);
    const id = `chatcmpl-${index}`;
    if (!body.stream) return Response.json(jsonStep(step, id));
    const enc = new TextEncoder();
    const parts = streamedStep(step, id);
    let i = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (i < parts.length) return c.enqueue(enc.encode(`data: ${JSON.stringify(parts[i++])}\n\n`));
        c.enqueue(enc.encode("data: [DONE]\n\n"));
        c.close();
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  });
  return { requests, chats: () => requests.filter((r) => r.path === "/chat/completions"), spy };
}

/** The model's escalate_emergency call, as a scripted step makes it. */
export const escalateCall = (situation: string, words: string) => ({
  name: "escalate_emergency",
  arguments: JSON.stringify({ situation, words }),
});
