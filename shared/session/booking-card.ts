import { z } from "zod/mini";
import { EVENT_TYPES } from "../wire/protocol.ts";

const base = { id: z.string(), at: z.number() };
const iso = z.string().check(z.maxLength(40));
const text = (max: number) => z.string().check(z.maxLength(max));

/** A slots card: what find_slots offered (UTC starts), in the order the calendar gave them. */
export const BookingOffer = z.object({
  cardId: text(100),
  title: text(200),
  lengthMinutes: z.int().check(z.positive()),
  slots: z.array(iso).check(z.maxLength(200)),
  /** Why the card was offered again: the slot the visitor picked was taken meanwhile. */
  notice: z.optional(z.enum(["slot_taken"])),
});
export type BookingOffer = z.infer<typeof BookingOffer>;

/** A booking the worker made on the calendar; `key` is its idempotency key (session and slot). */
export const BookedVisit = z.object({
  cardId: text(100),
  key: text(64),
  uid: text(200),
  start: iso,
  end: iso,
  title: text(200),
  name: text(200),
  contact: text(200),
  reason: text(1000),
  /** The visitor's time zone (IANA, checked by the worker): the zone the model names the visit's time in. */
  timeZone: z.optional(text(64)),
});
export type BookedVisit = z.infer<typeof BookedVisit>;

export const BookingOffered = z.object({ ...base, type: z.literal(EVENT_TYPES.bookingOffered), data: BookingOffer });
export const BookingCreated = z.object({ ...base, type: z.literal(EVENT_TYPES.bookingCreated), data: BookedVisit });
export const BookingCancelled = z.object({
  ...base,
  type: z.literal(EVENT_TYPES.bookingCancelled),
  data: z.object({ cardId: text(100), uid: text(200) }),
});
export const BookingEvents = [BookingOffered, BookingCreated, BookingCancelled] as const;
