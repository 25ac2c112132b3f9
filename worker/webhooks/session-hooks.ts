import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import type { SessionState } from "../../shared/session/session.ts";
import { WEBHOOK_EVENTS } from "../../shared/admin/webhook-events.ts";
import type { WebhookMessage } from "./webhook-message.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

/**
 * The webhook events a session's newly stored events make. Only what the log kept is passed in (an
 * event stored twice is not), and each message's id is the session's and the event's: a replayed
 * append never makes a second delivery. The data is chosen field by field, nothing passed on whole.
 */
export function sessionWebhookMessages(state: SessionState, added: readonly SessionEvent[]): WebhookMessage[] {
  const conversation = state.sessionId;
  if (!conversation) return [];
  const base = { conversation, agentId: state.agentId };
  const out: WebhookMessage[] = [];
  const push = (e: SessionEvent, type: WebhookMessage["type"], data: Record<string, unknown>) =>
    out.push({ id: `${conversation}:${e.id}`, type, conversation, at: e.at, data: { agentId: base.agentId, ...data } });
  for (const e of added) {
    switch (e.type) {
      case EVENT_TYPES.sessionOpened:
        push(e, WEBHOOK_EVENTS.conversationStarted, { locale: e.data.locale ?? null });
        break;
      case EVENT_TYPES.messageAppended: {
        const m = e.data.message;
        if (m.role !== "user" && m.role !== "assistant") break;
        const message = { id: m.id, role: m.role, text: m.content, status: m.status ?? "complete" };
        push(e, WEBHOOK_EVENTS.messageCreated, { message });
        break;
      }
      case EVENT_TYPES.escalationRaised:
        push(e, WEBHOOK_EVENTS.escalationRaised, { escalation: e.data.escalation });
        break;
      case EVENT_TYPES.personRequested:
        push(e, WEBHOOK_EVENTS.personRequested, { by: e.data.by, reason: e.data.reason ?? null });
        break;
      case EVENT_TYPES.contactLeft:
        push(e, WEBHOOK_EVENTS.contactLeft, { contact: e.data });
        break;
      case EVENT_TYPES.adviceRecorded:
        push(e, WEBHOOK_EVENTS.adviceRecorded, { advice: e.data.advice });
        break;
      case EVENT_TYPES.feedbackGiven:
        push(e, WEBHOOK_EVENTS.feedbackGiven, {
          messageId: e.data.messageId,
          rating: e.data.rating,
          comment: e.data.comment ?? null,
        });
        break;
      case EVENT_TYPES.bookingCreated: {
        const b = e.data;
        const booking = { uid: b.uid, start: b.start, end: b.end, title: b.title, name: b.name, contact: b.contact };
        push(e, WEBHOOK_EVENTS.bookingCreated, { booking: { ...booking, reason: b.reason } });
        break;
      }
      case EVENT_TYPES.bookingCancelled:
        push(e, WEBHOOK_EVENTS.bookingCancelled, { booking: { uid: e.data.uid } });
        break;
      case EVENT_TYPES.stageChanged:
        if (e.data.from && e.data.reason !== "started")
          push(e, WEBHOOK_EVENTS.stageCompleted, {
            stage: e.data.from,
            next: e.data.to,
            values: state.context[e.data.from] ?? {},
          });
        break;
    }
  }
  return out;
}
