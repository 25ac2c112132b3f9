import type { SessionState } from "../../shared/session/session.ts";
import type { UpstreamBody } from "../llm/upstream-body.ts";
import type { StoredMessage } from "../../shared/session/session-events.ts";

type Upstream = UpstreamBody["messages"][number];

/** Said to the model once staff have spoken in the conversation (after a hand back). */
const STAFF_NOTE =
  "A person from the site's staff took this conversation over for a while and has handed it back to you. " +
  'Their messages appear as your own turns starting with "[<name>, staff]:"; the visitor\'s messages in between ' +
  "were read by them, not by you. Treat all of it as part of the conversation: go on from where they left it, " +
  "do not repeat what they said, and do not contradict it without a reason. An earlier request for a person " +
  "has been served: do not ask for one again unless the visitor asks anew.";

const staffTurn = (m: StoredMessage): Upstream => ({
  role: "assistant",
  content: `[${m.author?.name}, staff]: ${m.content}`,
});
const isObservation = (m: StoredMessage) => m.content.startsWith("Observation:");

/**
 * What the model sees after a takeover: the conversation the client sent, with what was
 * said while a person handled it put in at its time: staff messages as assistant turns naming their
 * author, and the visitor's messages to staff the client did not send. `ids[i]` is the client's id
 * of `body.messages[i + 1]` (the first is the system prompt). Changes nothing for a session no staff
 * member wrote in. The session's log, not the client, says what staff wrote: a client's copy of a
 * staff message is replaced by the stored one.
 */
export function withStaffTurns(body: UpstreamBody, ids: ReadonlyArray<string | undefined>, state: SessionState): void {
  if (!state.messages.some((m) => m.author)) return;
  const stored = new Map(state.messages.map((m) => [m.id, m]));
  const sent = new Set(ids.filter((id): id is string => !!id));
  const [system, ...rest] = body.messages;
  // Each sent message's time: its stored copy's, or the one before it; the new input (not stored yet) goes last.
  let lastKnown = rest.length;
  while (lastKnown > 0 && !stored.has(ids[lastKnown - 1] ?? "")) lastKnown--;
  let t = 0;
  const timed = rest.map((m, i) => {
    const s = stored.get(ids[i] ?? "");
    t = i >= lastKnown ? Infinity : (s?.at ?? t);
    return { m: s?.author ? staffTurn(s) : m, t };
  });
  // The visitor's messages since the first join (the trace's takeover step) went to staff, not here.
  const joinedAt = Math.min(...state.trace.filter((s) => s.kind === "takeover").map((s) => s.at));
  const toStaff = (m: StoredMessage) => m.role === "user" && m.at >= joinedAt && !isObservation(m);
  const missing = state.messages
    .filter((m) => !sent.has(m.id) && (m.author || toStaff(m)))
    .map((m) => ({ m: m.author ? staffTurn(m) : ({ role: "user", content: m.content } as Upstream), t: m.at }));
  for (const x of missing) {
    const at = timed.findIndex((y) => y.t > x.t);
    timed.splice(at === -1 ? timed.length : at, 0, x);
  }
  const note = typeof system.content === "string" ? `${system.content}\n\n${STAFF_NOTE}` : STAFF_NOTE;
  body.messages = [{ ...system, content: note } as Upstream, ...timed.map((x) => x.m)];
}
