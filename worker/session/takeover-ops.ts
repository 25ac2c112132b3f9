import { messageEvent } from "../../shared/session/events.ts";
import { traceEvent } from "../../shared/chat/step-events.ts";
import { EVENT_TYPES, type PersonRequester, type UnavailableReason } from "../../shared/wire/protocol.ts";
import type { SessionState } from "../../shared/session/session.ts";
import { STAFF_MESSAGE_PREFIX } from "../../shared/takeover/takeover-api.ts";
import type { ContactInput, StaffMember } from "../../shared/takeover/takeover-events.ts";
import type { LocalizedText } from "../../shared/config/localized-text.ts";
import { localize } from "../../shared/config/localize.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

/**
 * A takeover step, as the routes hand it to the session's object (plain data: it crosses the RPC).
 * `site`: staff steps name their site; another site's session is answered as unknown.
 */
export type TakeoverOp = { site?: string } & (
  | {
      op: "request";
      by: PersonRequester;
      reason?: string;
      /** Worked out by the route: staff present and within the site's hours, or why not (and the text). */
      unavailable?: { reason: UnavailableReason; text: LocalizedText };
    }
  | { op: "join"; staff: StaffMember }
  | { op: "staff_message"; staff: StaffMember; id?: string; content: string }
  /** `staffGone`: the staff member handling it has had no Live page open for PRESENCE_TTL_MS (the route asked). */
  | { op: "visitor_message"; id: string; content: string; staffGone?: boolean }
  | { op: "hand_back"; staff: StaffMember }
  | { op: "contact"; contact: ContactInput }
  /** The session's alarm found nobody can come for a queued request any more (queue-expiry.ts). */
  | { op: "expire"; unavailable: { reason: UnavailableReason; text: LocalizedText } }
);

export type TakeoverStatus =
  "ok" | "queued" | "unavailable" | "with_person" | "already_taken" | "not_taken_over" | "unknown_session";

export interface TakeoverOutcome {
  status: TakeoverStatus;
  events: SessionEvent[];
  /** Who handles the conversation after the step (an `already_taken` refusal names them). */
  handler: SessionState["handler"];
  /** A join stops the replies streaming now: the agent does not talk over the person. */
  stopReplies?: boolean;
}

const ev = (id: string, at: number, type: string, data: unknown) => ({ id, at, type, data }) as SessionEvent;

/**
 * Pure decisions of the SessionRoom's takeover steps (like stage-ops.ts): which events a step
 * appends, given the state it sees. The object serializes them, so of two staff members joining at
 * once exactly one gets the conversation and the other `already_taken`.
 */
export function takeoverStep(state: SessionState, op: TakeoverOp, at: number): TakeoverOutcome {
  const handler = state.handler ?? { kind: "agent" };
  const out = (status: TakeoverStatus, events: SessionEvent[] = [], extra: Partial<TakeoverOutcome> = {}) => ({
    status,
    events,
    handler,
    ...extra,
  });
  if (!state.sessionId || (op.site !== undefined && op.site !== state.siteKey)) return out("unknown_session");
  const person = handler.kind === "person" ? handler : null;
  const rand = () => crypto.randomUUID();
  switch (op.op) {
    case "request": {
      if (person) return out("with_person");
      // Asked again while queued: the first request keeps its place (and its waiting time).
      if (state.personRequest?.status === "queued") return out("queued");
      const asked = ev(`person:${rand()}`, at, EVENT_TYPES.personRequested, {
        by: op.by,
        ...(op.reason ? { reason: op.reason } : {}),
      });
      if (!op.unavailable) return out("queued", [asked]);
      const { reason, text } = op.unavailable;
      const unavailable = { reason, message: localize(text, state.locale ?? "en") };
      return out("unavailable", [asked, ev(`person:${rand()}`, at, EVENT_TYPES.personUnavailable, unavailable)]);
    }
    case "join": {
      if (person?.staffId === op.staff.staffId) return out("ok");
      if (person) return out("already_taken");
      const joined = ev(`staff:${rand()}`, at, EVENT_TYPES.staffJoined, op.staff);
      const next = { kind: "person" as const, ...op.staff, since: at };
      const waited = state.personRequest ? at - state.personRequest.at : null;
      const trace = traceEvent(`trace:${rand()}`, {
        kind: "takeover",
        name: "join",
        ok: true,
        detail: { staff: op.staff.name, waitedMs: waited },
      });
      return out("ok", [joined, trace], { handler: next, stopReplies: true });
    }
    case "staff_message": {
      if (person?.staffId !== op.staff.staffId) return out("not_taken_over");
      const id = op.id ? `${STAFF_MESSAGE_PREFIX}${op.id.replace(/^staff-/, "")}` : `${STAFF_MESSAGE_PREFIX}${rand()}`;
      const author = { staffId: person.staffId, name: person.name };
      const message = { id, role: "assistant" as const, content: op.content, author, status: "complete" as const, at };
      return out("ok", [messageEvent(message)]);
    }
    case "visitor_message": {
      if (!person) return out("not_taken_over");
      // The person left (their Live page closed long ago) without handing back: the agent takes the
      // conversation again rather than leave the visitor writing to nobody; they may join again.
      if (op.staffGone) {
        const back = ev(`staff:${rand()}`, at, EVENT_TYPES.staffHandedBack, {
          staffId: person.staffId,
          name: person.name,
        });
        const why = traceEvent(`trace:${rand()}`, { kind: "takeover", name: "staff_gone", ok: false }, at);
        return out("not_taken_over", [back, why], { handler: { kind: "agent" } });
      }
      // An id already stored (a retried send) is the same message: stored once.
      if (state.messages.some((m) => m.id === op.id)) return out("ok");
      return out("ok", [messageEvent({ id: op.id, role: "user", content: op.content, at })]);
    }
    case "hand_back": {
      // Any staff member may hand back (one who left without doing so must not strand the visitor).
      if (!person) return out("not_taken_over");
      return out("ok", [ev(`staff:${rand()}`, at, EVENT_TYPES.staffHandedBack, op.staff)], {
        handler: { kind: "agent" },
      });
    }
    case "contact":
      return out("ok", [ev(`contact:${rand()}`, at, EVENT_TYPES.contactLeft, op.contact)]);
    case "expire": {
      // A join that came first wins: the request is no longer queued, and nothing is told.
      if (person) return out("with_person");
      if (state.personRequest?.status !== "queued") return out("ok");
      const { reason, text } = op.unavailable;
      const unavailable = { reason, message: localize(text, state.locale ?? "en") };
      return out("unavailable", [ev(`person:${rand()}`, at, EVENT_TYPES.personUnavailable, unavailable)]);
    }
  }
}
