import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import type { SessionState } from "../../shared/session/session.ts";
import { STAFF_MESSAGE_PREFIX } from "../../shared/takeover/takeover-api.ts";
import type { SessionEvent, StoredMessage } from "../../shared/session/session-events.ts";

/** Why a client's id was refused, as the route answers it. */
export interface IdRefusal {
  status: 403 | 409;
  code: "forbidden" | "conflict";
  message: string;
}

/** The ids a chat turn names: its reply's (the client's `parley.replyId`) and its new messages'. */
export interface TurnIds {
  replyId: string;
  inputs: ReadonlyArray<{ id: string; role: string }>;
}

export const turnIds = (replyId: string, inputs: readonly SessionEvent[]): TurnIds => ({
  replyId,
  inputs: inputs.flatMap((e) =>
    e.type === EVENT_TYPES.messageAppended ? [{ id: e.data.message.id, role: e.data.message.role }] : [],
  ),
});

/** A reply as far as it came before its stream was cut: a retry of the same reply supersedes it. */
const isCutCopy = (m: StoredMessage) => m.role === "assistant" && !m.author && m.status === "interrupted";

const forbidden = (id: string): IdRefusal => ({
  status: 403,
  code: "forbidden",
  message: `Id ${JSON.stringify(id)}: ids starting ${STAFF_MESSAGE_PREFIX} are staff messages'`,
});
const conflict = (id: string, what: string): IdRefusal => ({
  status: 409,
  code: "conflict",
  message: `Id ${JSON.stringify(id)} ${what}; a new message needs an id of its own`,
});

/**
 * Whether a chat turn's client-named ids may be used. The client names its replies (a retry or a
 * second tab then asks for the same reply, not a second one), but an id names a new message: the
 * reply, or a new message of the turn, stored under a stored message's id would take its place (a
 * staff member's words, a complete reply, the visitor's own). Allowed: the cut copy of the same
 * reply, still the conversation's last message (a retry supersedes it), and a message the client
 * sends again as it was stored (same id and role: stored once). `live`: replies streaming now.
 */
export function turnIdRefusal(state: SessionState, ids: TurnIds, live: ReadonlySet<string>): IdRefusal | null {
  const all = [ids.replyId, ...ids.inputs.map((m) => m.id)];
  const staff = all.find((id) => id.startsWith(STAFF_MESSAGE_PREFIX));
  if (staff) return forbidden(staff);
  if (ids.inputs.some((m) => m.id === ids.replyId)) return conflict(ids.replyId, "names the request's own message");
  const at = new Map(state.messages.map((m, i) => [m.id, i]));
  const reply = at.get(ids.replyId);
  const last = state.messages.length - 1;
  if (reply !== undefined && !(reply === last && isCutCopy(state.messages[reply])))
    return conflict(ids.replyId, "names a stored message of this session");
  for (const input of ids.inputs) {
    const i = at.get(input.id);
    if (i !== undefined && state.messages[i].role !== input.role)
      return conflict(input.id, "names a stored message of this session");
    if (live.has(input.id)) return conflict(input.id, "names a reply streaming now");
  }
  return null;
}

/**
 * The log's own rule, whatever the path and however requests interleave: a stored message is never
 * replaced, but by its own reply superseding its cut copy. An event that would replace one otherwise
 * is not stored (the routes refuse such ids before; this catches what slips between their check and
 * the write).
 */
export function replacesStored(state: SessionState, event: SessionEvent): boolean {
  if (event.type !== EVENT_TYPES.messageAppended) return false;
  const m = event.data.message;
  const stored = state.messages.find((s) => s.id === m.id);
  if (!stored) return false;
  return !(isCutCopy(stored) && m.role === "assistant" && !m.author);
}
