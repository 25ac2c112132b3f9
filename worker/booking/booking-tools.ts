import type { BookingCard } from "../../shared/booking-fold.ts";
import { EVENT_TYPES } from "../../shared/protocol.ts";
import type { ToolInput } from "../../shared/tool.ts";
import type { bookSlot, cancelBooking, findSlots } from "../../shared/tools/booking.ts";
import { loadSite } from "../config/config-store.ts";
import { ApiError } from "../errors.ts";
import type { EdgeToolContext, EdgeToolOutput } from "../tools/registry.ts";
import { emitBookingEvent } from "./booking-events.ts";
import { siteCalendar } from "./booking-calendar.ts";
import { isCalendarError, type CalendarConnector } from "./calendar-connector.ts";
import { sessionRoom } from "../objects.ts";

const DAY_MS = 86_400_000;
/** A slot must start at least this far ahead: a visit cannot be booked as it begins. */
const LEAD_MS = 60_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function calendar(ctx: EdgeToolContext) {
  const site = await loadSite(ctx.env, ctx.siteKey);
  if (!site?.booking) throw new ApiError(400, "misconfigured", "This site has no calendar connected (booking)");
  return { site, booking: site.booking, cal: siteCalendar(ctx.env, site) };
}

/** A calendar's failure as the answer a visitor and the model can act on; the details stay in the trace. */
async function calendarCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!isCalendarError(err)) throw err;
    if (err.kind === "busy")
      throw new ApiError(
        503,
        "calendar_busy",
        `The calendar is busy; try again in a minute. ${err.message}`,
        {},
        {
          ...(err.retryAfter ? { "retry-after": String(err.retryAfter) } : {}),
        },
      );
    if (err.kind === "conflict") throw new ApiError(409, "slot_unavailable", err.message);
    throw new ApiError(502, "calendar_unavailable", `The calendar could not be reached. ${err.message}`);
  }
}

async function freeSlots(cal: CalendarConnector, fromMs: number, days: number): Promise<string[]> {
  const now = Date.now();
  const slots = await calendarCall(() => cal.slots(day(fromMs), day(fromMs + days * DAY_MS)));
  return slots.filter((s) => Date.parse(s) > now + LEAD_MS);
}

/** find_slots: the calendar's free times as a slots card (a session event the widget shows). */
export async function runFindSlots(ctx: EdgeToolContext, input: ToolInput<typeof findSlots>): Promise<EdgeToolOutput> {
  const { booking, cal } = await calendar(ctx);
  const asked = input.from ? Date.parse(`${input.from}T00:00:00Z`) : NaN;
  const from = Math.max(Date.now(), Number.isNaN(asked) ? 0 : asked);
  const [type, slots] = await Promise.all([
    calendarCall(() => cal.eventType()),
    freeSlots(cal, from, booking.daysAhead),
  ]);
  const cardId = `slots-${crypto.randomUUID().slice(0, 12)}`;
  const offer = { cardId, title: type.title, lengthMinutes: type.lengthMinutes, slots: slots.slice(0, 200) };
  const event = await emitBookingEvent(ctx.env, ctx.sessionId, { type: EVENT_TYPES.bookingOffered, data: offer });
  const result = slots.length
    ? {
        cardId,
        shown: offer.slots.length,
        first: offer.slots[0],
        instruction:
          "The visitor sees the free times in a card and picks one there, then confirms their name, e-mail and " +
          "reason in it; the card books the visit. Say so in one sentence and do not list the times.",
      }
    : { cardId, shown: 0, instruction: `No free times in the next ${booking.daysAhead} days. Tell the visitor so.` };
  return { result, events: [event] };
}

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Same session, same slot: the same key, so a retried confirmation books once. */
export const bookingKey = async (sessionId: string, start: string) =>
  (await sha256Hex(`${sessionId}\n${new Date(start).toISOString()}`)).slice(0, 32);

const cardOf = (cards: BookingCard[] | undefined, cardId: string) => (cards ?? []).find((c) => c.cardId === cardId);

/**
 * book_slot: books a slot of a card of this session (a time the calendar offered, not one the browser
 * names), once per session and slot. A slot taken meanwhile answers fresh slots on the same card.
 */
export async function runBookSlot(ctx: EdgeToolContext, input: ToolInput<typeof bookSlot>): Promise<EdgeToolOutput> {
  const startMs = Date.parse(input.start);
  if (!(startMs > Date.now() + LEAD_MS))
    throw new ApiError(400, "slot_unavailable", `${input.start} has already begun or passed: pick a later time`);
  const start = new Date(startMs).toISOString();
  const key = await bookingKey(ctx.sessionId, start);
  const state = await sessionRoom(ctx.env, ctx.sessionId).getState();
  const card = cardOf(state.bookings, input.cardId);
  if (!card) throw new ApiError(400, "slot_unavailable", `No slots card ${input.cardId} in this conversation`);
  const done = (state.bookings ?? []).find((c) => c.booking?.key === key && !c.booking.cancelled)?.booking;
  if (done) return { result: { status: "booked", replayed: true, uid: done.uid, start: done.start, end: done.end } };
  if (!card.slots.includes(start))
    throw new ApiError(400, "slot_unavailable", `${start} is not one of the times card ${input.cardId} offered`);
  const { booking, cal } = await calendar(ctx);
  const visit = {
    start,
    name: input.name,
    email: input.contact,
    reason: input.reason ?? "",
    timeZone: input.timeZone ?? "UTC",
    language: input.language ?? "en",
    key,
  };
  let made: { uid: string; start: string; end: string };
  try {
    made = await cal.book(visit);
  } catch (err) {
    if (!(isCalendarError(err) && err.kind === "conflict")) return calendarCall(() => Promise.reject(err));
    // Taken meanwhile: the card offers the calendar's times as they are now, the visitor's details kept.
    const slots = (await freeSlots(cal, Date.now(), booking.daysAhead)).filter((s) => s !== start);
    const { booking: _none, ...offered } = card;
    const offer = { ...offered, slots: slots.slice(0, 200), notice: "slot_taken" as const };
    const event = await emitBookingEvent(ctx.env, ctx.sessionId, { type: EVENT_TYPES.bookingOffered, data: offer });
    const instruction = "That time was just taken. The card shows the free times now; ask the visitor to pick another.";
    return { result: { status: "slot_taken", cardId: card.cardId, shown: slots.length, instruction }, events: [event] };
  }
  const booked = {
    cardId: card.cardId,
    key,
    uid: made.uid,
    start: made.start,
    end: made.end,
    title: card.title,
    name: input.name,
    contact: input.contact,
    reason: input.reason ?? "",
  };
  const event = await emitBookingEvent(ctx.env, ctx.sessionId, { type: EVENT_TYPES.bookingCreated, data: booked });
  return {
    result: { status: "booked", replayed: false, uid: made.uid, start: made.start, end: made.end },
    events: [event],
  };
}

/** cancel_booking: only a visit booked in this conversation (the uid is checked against the session's own). */
export async function runCancelBooking(
  ctx: EdgeToolContext,
  input: ToolInput<typeof cancelBooking>,
): Promise<EdgeToolOutput> {
  const state = await sessionRoom(ctx.env, ctx.sessionId).getState();
  const card = (state.bookings ?? []).find((c) => c.booking?.uid === input.uid);
  if (!card?.booking) throw new ApiError(404, "not_found", `No visit ${input.uid} was booked in this conversation`);
  if (card.booking.cancelled) return { result: { status: "cancelled", replayed: true, uid: input.uid } };
  const { cal } = await calendar(ctx);
  await calendarCall(() => cal.cancel(input.uid, input.reason ?? "Cancelled by the visitor in the chat"));
  const data = { cardId: card.cardId, uid: input.uid };
  const event = await emitBookingEvent(ctx.env, ctx.sessionId, { type: EVENT_TYPES.bookingCancelled, data });
  return { result: { status: "cancelled", replayed: false, uid: input.uid }, events: [event] };
}
