import { feedbackEvent } from "../../shared/session/events.ts";
import type { SessionState } from "../../shared/session/session.ts";
import type { FeedbackInput, SessionEvent } from "../../shared/session/session-events.ts";

export interface FeedbackOutcome {
  event: SessionEvent;
  reply: string;
  question: string;
}

/**
 * A visitor's rating of one of the session's assistant replies (null: no such reply): the event to
 * store, and what the strategy desk needs to read it: the reply and the visitor message it answered.
 */
export function feedbackOutcome(state: SessionState, input: FeedbackInput): FeedbackOutcome | null {
  const at = state.messages.findIndex((m) => m.id === input.messageId && m.role === "assistant");
  if (at === -1) return null;
  const event = feedbackEvent(input, Date.now());
  const asked = (m: { role: string; content: string }) => m.role === "user" && !m.content.startsWith("Observation:");
  const question = state.messages.slice(0, at).filter(asked).at(-1);
  return { event, reply: state.messages[at].content, question: question?.content ?? "" };
}
