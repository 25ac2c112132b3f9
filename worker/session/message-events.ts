import type { ChatMessage } from "../../shared/chat.ts";
import { EVENT_TYPES } from "../../shared/protocol.ts";
import type { SessionEvent, StoredMessage } from "../../shared/session.ts";
import { textOf } from "../llm/demo-model.ts";
import type { AccumulatedReply } from "../llm/reply-accumulator.ts";

/**
 * The messages a chat request adds to the session: those after its last assistant message (the
 * visitor's new message, or the tool results of the previous step). Earlier ones are already
 * stored from earlier requests.
 */
export function newInputEvents(messages: readonly ChatMessage[], now = Date.now()): SessionEvent[] {
  let start = messages.length;
  while (start > 0 && messages[start - 1].role !== "assistant") start--;
  return messages.slice(start).filter((m) => m.role !== "system").map((m) => {
    const message: StoredMessage = {
      id: m.id ?? crypto.randomUUID(),
      role: m.role,
      content: textOf(m.content),
      ...(m.role === "tool" ? { toolCallId: m.tool_call_id } : {}),
      at: now,
    };
    return messageEvent(message);
  });
}

export function replyEvent(replyId: string, reply: AccumulatedReply, cut: boolean, now = Date.now()): SessionEvent {
  const message: StoredMessage = {
    id: replyId,
    role: "assistant",
    content: reply.content,
    ...(reply.toolCalls.length ? { toolCalls: reply.toolCalls } : {}),
    status: cut ? "interrupted" : "complete",
    at: now,
  };
  // An interrupted copy gets its own event id, so a completed retry of the same reply supersedes it.
  return messageEvent(message, cut ? ":interrupted" : "");
}

function messageEvent(message: StoredMessage, suffix = ""): SessionEvent {
  return { id: `msg:${message.id}${suffix}`, at: message.at, type: EVENT_TYPES.messageAppended, data: { message } };
}

/** The router's classification, kept as a trace step of the turn. */
export function routeTraceEvent(replyId: string, reply: AccumulatedReply, ms: number, now = Date.now()): SessionEvent {
  let decision: Record<string, string | number | null> = { intent: null };
  try {
    const args = JSON.parse(reply.toolCalls[0]?.function.arguments ?? "{}") as { intent?: string; confidence?: number };
    decision = { intent: String(args.intent ?? ""), confidence: Number(args.confidence ?? 0) };
  } catch { /* an unparsable classification is recorded as such */ }
  return { id: `trace:${replyId}`, at: now, type: EVENT_TYPES.traceStep, data: { kind: "classify", ms, ok: decision.intent !== null, detail: decision } };
}
