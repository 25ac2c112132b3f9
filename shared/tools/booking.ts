import { z } from "zod/mini";
import { defineTool } from "./tool.ts";

/**
 * Booking in the chat: the three tools run on the worker, against the site's calendar (its API key a
 * worker secret). The visitor picks and confirms in the slots card; the model only opens it.
 */
export const findSlots = defineTool({
  name: "find_slots",
  runsOn: "edge",
  description:
    "Show the visitor a card with the free appointment times of the clinic's calendar, in their own time zone. " +
    "Use it when the visitor wants to book a visit. The visitor picks a time and confirms in the card.",
  input: z.object({
    /** First day to look at (YYYY-MM-DD); today when left out. */
    from: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))),
  }),
});

export const bookSlot = defineTool({
  name: "book_slot",
  runsOn: "edge",
  description:
    "Book one of the times find_slots showed, for the visitor, after they confirmed the time and their details.",
  input: z.object({
    cardId: z.string().check(z.minLength(1), z.maxLength(100)),
    /** The slot's start, exactly as find_slots gave it (ISO 8601, UTC). */
    start: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/)),
    name: z.string().check(z.minLength(1), z.maxLength(200)),
    /** An e-mail address (the calendar sends the confirmation there). */
    contact: z.email().check(z.maxLength(200)),
    reason: z.optional(z.string().check(z.maxLength(1000))),
    timeZone: z.optional(z.string().check(z.maxLength(64))),
    language: z.optional(z.string().check(z.maxLength(16))),
  }),
});

export const cancelBooking = defineTool({
  name: "cancel_booking",
  runsOn: "edge",
  description: "Cancel a visit booked in this conversation, when the visitor asks for it.",
  input: z.object({
    uid: z.string().check(z.minLength(1), z.maxLength(200)),
    reason: z.optional(z.string().check(z.maxLength(500))),
  }),
});

export const BOOKING_TOOLS = [findSlots, bookSlot, cancelBooking] as const;
