import type { ChatMessage } from "../chat/chat.ts";
import { contentText } from "../chat/message-content.ts";
import { photoIdsIn } from "../chat/photo-ref.ts";
import { EVENT_TYPES } from "../wire/protocol.ts";
import type { ConsentKind } from "./consent.ts";
import type { Escalation, FeedbackInput, SessionEvent, StoredMessage, UsageRecorded } from "./session-events.ts";
import type { FieldValues } from "../stages/field-value.ts";

/**
 * Session events and their ids, made in one place for both sides. An id says what the event is
 * about (`msg:<message id>`), so an event appended twice (a retried request, a replayed outbox) is
 * stored once, and a message event replaces the message of the same id when folded. Advice cards'
 * and trace steps' events are made in step-events.ts (only the widget's tool runtime makes them there).
 */
export const messageEventId = (messageId: string, suffix = "") => `msg:${messageId}${suffix}`;
/** Events with no natural key (a stage change, a context edit): a fresh id each time. */
export const freshEventId = (kind: "stage" | "ctx" | "action" | "trace" | "feedback") =>
  `${kind}:${crypto.randomUUID()}`;

/** The first event of every session; one per session, so its id is fixed. */
export function sessionOpenedEvent(
  data: { sessionId: string; siteKey: string; agentId: string; locale?: string },
  at: number,
): SessionEvent {
  return { id: "opened", at, type: EVENT_TYPES.sessionOpened, data };
}

/** `suffix`: an interrupted copy of a reply gets its own id, so a completed retry supersedes it. */
export function messageEvent(message: StoredMessage, suffix = ""): SessionEvent {
  return {
    id: messageEventId(message.id, suffix),
    at: message.at,
    type: EVENT_TYPES.messageAppended,
    data: { message },
  };
}

/** The emergency guard's card for one visitor message: one per message, so a retried turn raises it once. */
export function escalationEvent(escalation: Escalation, at: number): SessionEvent {
  return { id: `escalation:${escalation.messageId}`, at, type: EVENT_TYPES.escalationRaised, data: { escalation } };
}

/** A visitor's rating of a reply; each rating is its own event (a later one supersedes it when folded). */
export function feedbackEvent(input: FeedbackInput, at: number): SessionEvent {
  return { id: freshEventId("feedback"), at, type: EVENT_TYPES.feedbackGiven, data: input };
}

/** The visitor agreed to a consent notice's version: the worker's event, at the worker's time (consent.ts). */
export function consentEvent(kind: ConsentKind, version: string, at: number): SessionEvent {
  return { id: `consent:${crypto.randomUUID()}`, at, type: EVENT_TYPES.consentGiven, data: { kind, version } };
}

export function usageEvent(callId: string, data: UsageRecorded["data"], at = Date.now()): SessionEvent {
  return { id: `usage:${callId}`, at, type: EVENT_TYPES.usageRecorded, data };
}

export function stageChangedEvent(
  from: string | null,
  to: string | null,
  reason: "started" | "confirmed" | "auto" | "condition",
  at: number,
  id = freshEventId("stage"),
): SessionEvent {
  return { id, at, type: EVENT_TYPES.stageChanged, data: { from, to, reason } };
}

export function contextEvent(
  stageId: string,
  values: FieldValues,
  source: "model" | "visitor" | "action",
  at: number,
): SessionEvent {
  return { id: freshEventId("ctx"), at, type: EVENT_TYPES.contextUpdated, data: { stageId, values, source } };
}

export function actionEvent(stageId: string, cardId: string, result: FieldValues, at: number): SessionEvent {
  return { id: freshEventId("action"), at, type: EVENT_TYPES.actionResolved, data: { stageId, cardId, result } };
}

/**
 * A chat message (the wire's shape) as the session stores it. `fallbackId` names a message that
 * came without an id (an OpenAI client that sends none).
 */
export function toStoredMessage(m: ChatMessage, at: number, fallbackId = ""): StoredMessage {
  const photos = m.role === "user" ? photoIdsIn(m.content) : [];
  return {
    id: m.id ?? fallbackId,
    role: m.role,
    content: contentText(m.content),
    ...(m.role === "assistant" && m.tool_calls?.length ? { toolCalls: m.tool_calls } : {}),
    ...(m.role === "assistant" && m.reasoning_content ? { reasoning: m.reasoning_content } : {}),
    ...(m.role === "tool" ? { toolCallId: m.tool_call_id } : {}),
    ...(photos.length ? { photos } : {}),
    ...(m.role === "assistant" ? { status: "complete" as const } : {}),
    at,
  };
}
