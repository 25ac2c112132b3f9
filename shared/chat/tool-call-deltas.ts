import type { ToolCall } from "./chat.ts";

/**
 * A streamed tool-call fragment as providers actually send it. OpenAI: `index` on every delta, id
 * and name on the first, arguments in string pieces. Gemini's OpenAI compatibility leaves `index`
 * out (THU-MAIC/OpenMAIC#1556, open-webui/computer#224); llama.cpp has sent `arguments` as an
 * object (ggml-org/llama.cpp#20198); Qwen repeats an empty `id` on later deltas.
 */
export interface ToolCallDelta {
  index?: number;
  id?: string | null;
  type?: string;
  function?: { name?: string | null; arguments?: string | Record<string, unknown> | null };
}

/** Joins tool-call fragments into whole calls, whatever their shape. */
export function mergeToolCallDeltas(into: ToolCall[], deltas: readonly ToolCallDelta[]): void {
  for (const d of deltas) {
    const at = slotOf(into, d);
    const call = (into[at] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
    if (d.id) call.id = d.id;
    const name = d.function?.name;
    // A name comes whole; some providers repeat it on every delta.
    if (name && call.function.name !== name) call.function.name += name;
    const args = d.function?.arguments;
    if (typeof args === "string") call.function.arguments += args;
    else if (args && typeof args === "object") call.function.arguments = JSON.stringify(args);
  }
}

/** Where a delta goes among the calls so far: its index, or for a provider that sends none, by id. */
export function slotOf(into: readonly ToolCall[], d: ToolCallDelta): number {
  if (typeof d.index === "number" && d.index >= 0) return d.index;
  // No index: a delta with an id not seen yet starts a call; one without continues the last.
  if (d.id) {
    const known = into.findIndex((c) => c?.id === d.id);
    return known >= 0 ? known : into.length;
  }
  return Math.max(0, into.length - 1);
}

/**
 * The calls that arrived, without the holes sparse indexes leave, each with an id: a provider that
 * sends none (some local servers) gets one made from the reply's id, the same on both sides, so a
 * tool result the widget sends back names the call the session stored.
 */
export function finishToolCalls(calls: readonly ToolCall[], replyId: string): ToolCall[] {
  return calls.filter(Boolean).map((c, i) => (c.id ? c : { ...c, id: `call_${replyId || "reply"}_${i}` }));
}
