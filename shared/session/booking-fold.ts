import type { z } from "zod/mini";
import { EVENT_TYPES } from "../wire/protocol.ts";
import type { BookedVisit, BookingEvents, BookingOffer } from "./booking-card.ts";

/*
 * The reducer's part for bookings, apart from the events' schemas (booking-card.ts): the widget's core
 * folds sessions and must not carry zod.
 */

/** A card as the widget shows it: the offer, and the booking made from it (cancelled or not). */
export type BookingCard = BookingOffer & { booking?: BookedVisit & { cancelled: boolean } };

type BookingEvent = z.infer<(typeof BookingEvents)[number]>;

/** Folds one booking event into the session's cards (pure; the reducer's part for bookings). */
export function foldBooking(cards: BookingCard[], event: BookingEvent): BookingCard[] {
  const d = event.data;
  const i = cards.findIndex((c) => c.cardId === d.cardId);
  if (event.type === EVENT_TYPES.bookingOffered) {
    const offer = event.data;
    if (i === -1) return [...cards, offer];
    return cards.map((c, j) => (j === i ? { ...offer, ...(c.booking ? { booking: c.booking } : {}) } : c));
  }
  if (i === -1) return cards;
  if (event.type === EVENT_TYPES.bookingCreated)
    return cards.map((c, j) =>
      j === i ? { ...c, notice: undefined, booking: { ...event.data, cancelled: false } } : c,
    );
  const uid = event.data.uid;
  return cards.map((c, j) =>
    j === i && c.booking?.uid === uid ? { ...c, booking: { ...c.booking, cancelled: true } } : c,
  );
}
