import type { SessionState } from "../../shared/session/session.ts";

/**
 * A site that keeps nothing erases a conversation minutes after its last message; the page that still
 * shows it keeps it: its messages and cards come along into the next session, and its messages go to
 * the model as the conversation so far (the worker stores only what is new). A chunk of its own: only
 * such a reopen needs it.
 */
export function carryOver(shown: SessionState, next: SessionState): SessionState {
  return {
    ...next,
    messages: [...shown.messages, ...next.messages],
    advice: [...shown.advice, ...(next.advice ?? [])],
    escalations: [...(shown.escalations ?? []), ...(next.escalations ?? [])],
  };
}
