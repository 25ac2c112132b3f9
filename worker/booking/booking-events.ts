import type { BookedVisit, BookingOffer } from "../../shared/session/booking-card.ts";
import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import type { Env } from "../env.ts";
import { sessionRoom } from "../objects.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

type BookingChange =
  | { type: typeof EVENT_TYPES.bookingOffered; data: BookingOffer }
  | { type: typeof EVENT_TYPES.bookingCreated; data: BookedVisit }
  | { type: typeof EVENT_TYPES.bookingCancelled; data: { cardId: string; uid: string } };

/**
 * The one place booking changes leave the booking code: session events (the card, the owner's
 * conversation view). `booking.created` and `booking.cancelled` reach the site's webhook endpoints
 * from there, as every session event does (webhooks/session-hooks.ts).
 */
export async function emitBookingEvent(env: Env, sessionId: string, change: BookingChange): Promise<SessionEvent> {
  const id =
    change.type === EVENT_TYPES.bookingCreated
      ? `booking:${change.data.key}`
      : `${change.type}:${change.data.cardId}:${crypto.randomUUID().slice(0, 8)}`;
  const event = { id, at: Date.now(), ...change } as SessionEvent;
  await sessionRoom(env, sessionId).append([event]);
  return event;
}
