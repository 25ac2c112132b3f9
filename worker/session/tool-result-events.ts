import { messageEventId } from "../../shared/events.ts";
import { EVENT_TYPES } from "../../shared/protocol.ts";
import type { SessionEvent, SessionState } from "../../shared/session.ts";

/**
 * The tool results a browser appends as its tools finish (issue 16: a page that goes away between a
 * tool's run and the next completion finds the result in the log, and the call does not run again).
 * A browser may append only the result of a call the assistant made, under a message id of its own;
 * a second result for a call already answered is dropped (the first run's stands). Answers what to
 * store, and what was refused (nothing is stored then).
 */
export function clientToolResults(
  state: SessionState,
  events: readonly SessionEvent[],
): { store: SessionEvent[]; refused: string[] } {
  const calls = new Set(
    state.messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : [])).map((c) => c.id),
  );
  const answered = new Set(state.messages.flatMap((m) => (m.role === "tool" && m.toolCallId ? [m.toolCallId] : [])));
  const ids = new Map(state.messages.map((m) => [m.id, m]));
  const refused: string[] = [];
  const store: SessionEvent[] = [];
  for (const e of events) {
    if (e.type !== EVENT_TYPES.messageAppended) {
      store.push(e);
      continue;
    }
    const m = e.data.message;
    const call = m.toolCallId ?? "";
    const stored = ids.get(m.id);
    // The same result sent again (the next completion's request carried it first): already there.
    if (stored?.role === "tool" && stored.toolCallId === call) continue;
    if (m.role !== "tool" || e.id !== messageEventId(m.id) || stored || !calls.has(call)) refused.push(m.id);
    else if (!answered.has(call)) {
      answered.add(call);
      ids.set(m.id, m);
      store.push(e);
    }
  }
  return { store, refused };
}
