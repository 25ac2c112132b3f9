import type { ChatChunk, ChatCompletion, ToolCall, Usage } from "./chat.ts";
import { normalizeFinishReason, type FinishReason } from "./finish-reason.ts";
import { fieldReasoning, splitThink, ThinkSplitter } from "./reasoning.ts";
import { finishToolCalls, mergeToolCallDeltas } from "./tool-call-deltas.ts";

/**
 * A streamed reply as far as it came. The widget folds the chunks it reads into one of these, and
 * the worker folds the copy of the bytes it relayed into another: one fold, so both sides agree on
 * what a stream said (the session stores what the visitor saw).
 */
export interface FoldedReply {
  /** The provider's id for the reply (its chunks' `id`): names tool calls that came without one. */
  id: string;
  /** The answer: the content without a think block at its start. */
  content: string;
  /** The model's thinking, from a field of its own or a think block (shared/chat/reasoning.ts); never the answer. */
  reasoning: string;
  /** By the provider's index (or by id where it sends none); see tool-call-deltas.ts. */
  toolCalls: ToolCall[];
  usage: Usage | null;
  /** As the provider spelled it; `endReply` normalizes it. */
  finishReason: string | null;
  think: ThinkSplitter;
}

export const emptyReply = (): FoldedReply => ({
  id: "",
  content: "",
  reasoning: "",
  toolCalls: [],
  usage: null,
  finishReason: null,
  think: new ThinkSplitter(),
});

/** Folds one chunk into the reply; true when it added answer or reasoning text. */
export function foldChunk(reply: FoldedReply, chunk: ChatChunk): boolean {
  if (!reply.id && typeof chunk.id === "string") reply.id = chunk.id;
  const choice = chunk.choices?.[0];
  // Usage comes in the last chunk, in a chunk of its own (`choices: []`), or in the choice (Moonshot).
  const usage = chunk.usage ?? choice?.usage;
  if (usage) reply.usage = usage;
  if (!choice) return false;
  const before = reply.content.length + reply.reasoning.length;
  reply.reasoning += fieldReasoning(choice.delta);
  if (typeof choice.delta?.content === "string" && choice.delta.content) {
    const split = reply.think.push(choice.delta.content);
    reply.reasoning += split.reasoning;
    reply.content += split.content;
  }
  if (choice.delta?.tool_calls) mergeToolCallDeltas(reply.toolCalls, choice.delta.tool_calls);
  if (choice.finish_reason) reply.finishReason = choice.finish_reason;
  return reply.content.length + reply.reasoning.length !== before;
}

export interface EndedReply {
  id: string;
  content: string;
  reasoning: string;
  toolCalls: ToolCall[];
  usage: Usage | null;
  finishReason: FinishReason | null;
}

/**
 * The reply once its stream ended: text a think block held back released, the tool calls without
 * holes and each with an id, the finish reason in one spelling.
 */
export function endReply(reply: FoldedReply): EndedReply {
  const rest = reply.think.end();
  reply.reasoning += rest.reasoning;
  reply.content += rest.content;
  const toolCalls = finishToolCalls(reply.toolCalls, reply.id);
  const { id, content, reasoning, usage } = reply;
  const finishReason = normalizeFinishReason(reply.finishReason, toolCalls.length > 0);
  return { id, content, reasoning, toolCalls, usage, finishReason };
}

/** A non-streamed completion read as its stream would be: reasoning apart, calls named, reason normalized. */
export function completionReply(c: ChatCompletion): EndedReply {
  const choice = c.choices?.[0];
  const message = choice?.message;
  const split = splitThink(message?.content ?? "");
  const toolCalls = finishToolCalls(message?.tool_calls ?? [], c.id ?? "");
  return {
    id: c.id ?? "",
    content: split.content,
    reasoning: fieldReasoning(message) + split.reasoning,
    toolCalls,
    usage: c.usage ?? null,
    finishReason: normalizeFinishReason(choice?.finish_reason ?? null, toolCalls.length > 0),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The fields the fold reads, each of the type it expects where present. */
function isChoice(v: unknown): boolean {
  if (!isObject(v)) return false;
  if (v.delta === undefined) return true;
  if (!isObject(v.delta)) return false;
  const { content, reasoning_content: rc, reasoning, tool_calls: calls } = v.delta;
  if ([content, rc, reasoning].some((t) => t != null && typeof t !== "string")) return false;
  // Gemini's OpenAI compatibility leaves `index` out of tool-call deltas.
  const callOk = (c: unknown) => isObject(c) && (c.index === undefined || typeof c.index === "number");
  return calls == null || (Array.isArray(calls) && calls.every(callOk));
}

/**
 * The shape check where a streamed chunk enters either side (a hand-written guard: the widget's
 * size budget has no room for a schema library in its core). An in-band `{ error }` event passes;
 * its reader decides what a failure mid-stream means.
 */
export function asChatChunk(value: unknown): (ChatChunk & { error?: { code?: string; message?: string } }) | null {
  if (!isObject(value)) return null;
  const { choices } = value;
  if (choices !== undefined && !(Array.isArray(choices) && choices.every(isChoice))) return null;
  return { ...(value as unknown as ChatChunk), choices: (choices ?? []) as ChatChunk["choices"] };
}
