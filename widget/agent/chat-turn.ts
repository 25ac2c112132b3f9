import type { ChatChunk, ChatMessage, ToolCall } from "../../shared/chat.ts";
import { ROUTES } from "../../shared/protocol.ts";
import { request, type FetchLike } from "../transport/http.ts";
import { readChatChunks } from "../transport/sse.ts";

/** A message as the widget sends it: the worker stores each once, by id. */
export interface TurnMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
}

export interface ChatTurnOptions {
  api: string;
  token: string;
  /** Every user/assistant message so far, oldest first, the new user message last. */
  messages: TurnMessage[];
  /** Id under which the worker stores the reply. */
  replyId: string;
  signal?: AbortSignal;
  fetch?: FetchLike;
  /** Called with every piece of reply text as it streams in, and with the text so far. */
  onDelta?: (delta: string, text: string) => void;
  /** Upper bound on completions in one turn; a turn with tools takes several. */
  maxSteps?: number;
}

export type TurnEnd = "complete" | "aborted" | "tool_calls" | "step_limit";

export interface ChatTurnResult {
  text: string;
  end: TurnEnd;
  finishReason: string | null;
  /** Tool calls the model asked for in the last step (none are run yet: a later issue adds the executor). */
  toolCalls: ToolCall[];
  steps: number;
}

interface StepResult {
  text: string;
  finishReason: string | null;
  toolCalls: ToolCall[];
}

/** Joins streamed tool-call fragments (OpenAI sends name and arguments in pieces, keyed by index). */
function mergeToolCalls(into: ToolCall[], deltas: NonNullable<ChatChunk["choices"][number]["delta"]["tool_calls"]>): void {
  for (const d of deltas) {
    const call = (into[d.index] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
    if (d.id) call.id = d.id;
    if (d.function?.name) call.function.name += d.function.name;
    if (d.function?.arguments) call.function.arguments += d.function.arguments;
  }
}

async function streamStep(opts: ChatTurnOptions, messages: ChatMessage[], onText: (delta: string) => void): Promise<StepResult> {
  const res = await request(opts.api + ROUTES.chat, {
    body: { stream: true, messages, parley: { replyId: opts.replyId } },
    token: opts.token,
    signal: opts.signal,
    fetch: opts.fetch,
  });
  if (!res.body) throw new Error("The chat response has no body");
  const step: StepResult = { text: "", finishReason: null, toolCalls: [] };
  for await (const chunk of readChatChunks(res.body, opts.signal)) {
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta?.content;
    if (delta) {
      step.text += delta;
      onText(delta);
    }
    if (choice.delta?.tool_calls) mergeToolCalls(step.toolCalls, choice.delta.tool_calls);
    if (choice.finish_reason) step.finishReason = choice.finish_reason;
  }
  step.toolCalls = step.toolCalls.filter(Boolean);
  return step;
}

/**
 * One visitor turn: ask the proxy for a streamed completion, and go on while the model asks for
 * tools. Today no tools run in the browser, so a turn ends after the first completion; the loop
 * shape is where the executor (native function calling, text ReAct) plugs in.
 * Aborting keeps what streamed so far and resolves with `end: "aborted"` instead of throwing.
 */
export async function runChatTurn(opts: ChatTurnOptions): Promise<ChatTurnResult> {
  const maxSteps = opts.maxSteps ?? 1;
  const messages: ChatMessage[] = opts.messages.map((m) => ({ id: m.id, role: m.role, content: m.content }));
  let text = "";
  let last: StepResult = { text: "", finishReason: null, toolCalls: [] };
  let steps = 0;
  try {
    while (steps < maxSteps) {
      steps++;
      last = await streamStep(opts, messages, (delta) => {
        text += delta;
        opts.onDelta?.(delta, text);
      });
      if (last.toolCalls.length === 0) return { text, end: "complete", finishReason: last.finishReason, toolCalls: [], steps };
      // No executor yet: hand the calls back instead of guessing observations.
      return { text, end: "tool_calls", finishReason: last.finishReason, toolCalls: last.toolCalls, steps };
    }
    return { text, end: "step_limit", finishReason: last.finishReason, toolCalls: last.toolCalls, steps };
  } catch (e) {
    if (opts.signal?.aborted) return { text, end: "aborted", finishReason: null, toolCalls: [], steps };
    throw e;
  }
}
