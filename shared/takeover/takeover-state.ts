import { EVENT_TYPES, type PersonRequester, type UnavailableReason } from "../wire/protocol.ts";
import type { SessionEvent } from "../session/session-events.ts";
import type { ContactInput } from "./takeover-events.ts";

/** Who answers the visitor now: the agent, or a person from the site's staff (since when). */
export type Handler = { kind: "agent" } | { kind: "person"; staffId: string; name: string; since: number };

/**
 * The visitor's (or the agent's) request for a person: `queued` until a staff member joins (then
 * it is cleared), `unavailable` when nobody could come (the widget offers the contact form).
 */
export interface PersonRequest {
  status: "queued" | "unavailable";
  by: PersonRequester;
  reason?: string;
  /** When it was asked: the queue's waiting time counts from here. */
  at: number;
  unavailable?: { reason: UnavailableReason; message: string };
}

export interface TakeoverState {
  handler: Handler;
  personRequest: PersonRequest | null;
  /** Contacts the visitor left when nobody was available, oldest first. */
  contacts: Array<ContactInput & { at: number }>;
  /**
   * Each join (and hand back, `back`), oldest first: where the visitor's panel says "<name> joined the
   * conversation" and "back to the assistant", also after a reload (the events are not in the state).
   */
  handoffs?: Array<{ name: string; at: number; back?: true }>;
}

export const AGENT: Handler = { kind: "agent" };

/**
 * The takeover part of the session's fold (pure): the state's takeover fields after `event`, or
 * null when the event is not a takeover event. `s` may come from an older worker without them.
 */
export function foldTakeover(s: Partial<TakeoverState>, event: SessionEvent): TakeoverState | null {
  // Written tersely on purpose: the reducer is in the widget's core, whose bytes are budgeted.
  const handler = s.handler ?? AGENT;
  const personRequest = s.personRequest ?? null;
  const contacts = s.contacts ?? [];
  const handoffs = s.handoffs ?? [];
  const T = EVENT_TYPES;
  switch (event.type) {
    case T.personRequested:
      // Already with a person, or already waiting: the first request keeps its place in the queue.
      return handler.kind === "person" || personRequest?.status === "queued"
        ? null
        : { handler, personRequest: { status: "queued", ...event.data, at: event.at }, contacts, handoffs };
    case T.personUnavailable:
      return (
        personRequest && {
          handler,
          personRequest: { ...personRequest, status: "unavailable", unavailable: event.data },
          contacts,
          handoffs,
        }
      );
    case T.staffJoined:
      return {
        handler: { kind: "person", ...event.data, since: event.at },
        personRequest: null,
        contacts,
        handoffs: [...handoffs, { name: event.data.name, at: event.at }],
      };
    case T.staffHandedBack:
      return {
        handler: AGENT,
        personRequest: null,
        contacts,
        handoffs: [...handoffs, { name: event.data.name, at: event.at, back: true }],
      };
    case T.contactLeft:
      return { handler, personRequest, contacts: [...contacts, { ...event.data, at: event.at }], handoffs };
  }
  return null;
}
