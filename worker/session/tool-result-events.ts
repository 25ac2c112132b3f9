import type { ClientToolResult } from "../../shared/session/client-events.ts";
import { messageEvent, messageEventId } from "../../shared/session/events.ts";
import type { SessionState } from "../../shared/session/session.ts";
import { STAFF_MESSAGE_PREFIX } from "../../shared/takeover/takeover-api.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

/**
 * The tool results a browser appends as its tools finish (a page that goes away between a tool's
 * run and the next completion finds the result in the log, and the call does not run again). A
 * browser may append only the result of a call the assistant made, under a new message id of its
 * own (not a stored message's, a reply's streaming now or a staff id); a second result for a call
 * already answered is dropped (the first run's stands). The worker writes the event: its id, its
 * time (`now`; a result's time places it in the conversation) and only the result's listed fields.
 * Answers what to store, and the ids refused (nothing is stored then).
 */
export function clientToolResults(
  state: SessionState,
  events: readonly ClientToolResult[],
  now: number,
  live: ReadonlySet<string>,
): { store: SessionEvent[]; refused: string[] } {
  const calls = new Set(
    state.messages.flatMap((m) => (m.role === "assistant" && !m.author ? (m.toolCalls ?? []) : [])).map((c) => c.id),
  );
  const answered = new Set(state.messages.flatMap((m) => (m.role === "tool" && m.toolCallId ? [m.toolCallId] : [])));
  const ids = new Map(state.messages.map((m) => [m.id, m]));
  const refused: string[] = [];
  const store: SessionEvent[] = [];
  for (const e of events) {
    const { id, content, toolCallId } = e.data.message;
    const stored = ids.get(id);
    // The same result sent again (the next completion's request carried it first): already there.
    if (stored?.role === "tool" && stored.toolCallId === toolCallId) continue;
    const fresh = !stored && !live.has(id) && !id.startsWith(STAFF_MESSAGE_PREFIX);
    if (e.id !== messageEventId(id) || !fresh || !calls.has(toolCallId)) refused.push(id);
    else if (!answered.has(toolCallId)) {
      answered.add(toolCallId);
      const message = { id, role: "tool" as const, content, toolCallId, at: now };
      ids.set(id, message);
      store.push(messageEvent(message));
    }
  }
  return { store, refused };
}
