import type { ChatChunk, ToolCall, Usage } from "./chat.ts";

/**
 * A streamed reply as far as it came. The widget folds the chunks it reads into one of these, and
 * the worker folds the copy of the bytes it relayed into another: one fold, so both sides agree on
 * what a stream said (the session stores what the visitor saw).
 */
export interface FoldedReply {
  content: string;
  /** By the provider's index; a call's id and name come first, its arguments in pieces. */
  toolCalls: ToolCall[];
  usage: Usage | null;
  finishReason: string | null;
}

export const emptyReply = (): FoldedReply => ({ content: "", toolCalls: [], usage: null, finishReason: null });

type ToolCallDelta = NonNullable<ChatChunk["choices"][number]["delta"]["tool_calls"]>[number];

/** Joins streamed tool-call fragments into whole calls, keyed by index. */
export function mergeToolCallDeltas(into: ToolCall[], deltas: readonly ToolCallDelta[]): void {
  for (const d of deltas) {
    const call = (into[d.index] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
    if (d.id) call.id = d.id;
    if (d.function?.name) call.function.name += d.function.name;
    if (d.function?.arguments) call.function.arguments += d.function.arguments;
  }
}

/** Folds one chunk into the reply; returns the text it added ("" when none). */
export function foldChunk(reply: FoldedReply, chunk: ChatChunk): string {
  if (chunk.usage) reply.usage = chunk.usage;
  const choice = chunk.choices?.[0];
  if (!choice) return "";
  const text = typeof choice.delta?.content === "string" ? choice.delta.content : "";
  reply.content += text;
  if (choice.delta?.tool_calls) mergeToolCallDeltas(reply.toolCalls, choice.delta.tool_calls);
  if (choice.finish_reason) reply.finishReason = choice.finish_reason;
  return text;
}

/** The tool calls that arrived, without the holes a provider's sparse indexes leave. */
export const foldedToolCalls = (reply: FoldedReply): ToolCall[] => reply.toolCalls.filter(Boolean);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The fields the fold reads, each of the type it expects where present. */
function isChoice(v: unknown): boolean {
  if (!isObject(v)) return false;
  if (v.delta === undefined) return true;
  if (!isObject(v.delta)) return false;
  const { content, tool_calls: calls } = v.delta;
  if (content != null && typeof content !== "string") return false;
  return calls == null || (Array.isArray(calls) && calls.every((c) => isObject(c) && typeof c.index === "number"));
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
