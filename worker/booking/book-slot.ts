import type { SiteConfig } from "../../shared/config/agent-config.ts";
import type { BookingCard } from "../../shared/session/booking-fold.ts";
import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import { knownTimeZone } from "../../shared/config/time-zone.ts";
import type { ToolInput } from "../../shared/tools/tool.ts";
import type { bookSlot } from "../../shared/tools/booking.ts";
import { ApiError } from "../errors.ts";
import type { EdgeToolContext, EdgeToolOutput } from "../tools/registry.ts";
import { emitBookingEvent } from "./booking-events.ts";
import { calendar, calendarCall, freeSlots, LEAD_MS } from "./calendar-calls.ts";
import { isCalendarError, type CalendarConnector } from "./calendar-connector.ts";
import { sessionRoom, siteIndex } from "../objects.ts";

/** How long a confirmation holds its slot at most: longer than a booking and its lookup take (8 s each). */
export const SLOT_CLAIM_MS = 30_000;
const WAIT_STEP_MS = 200;

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Same session, same slot: the same key, so a retried confirmation books once. */
export const bookingKey = async (sessionId: string, start: string) =>
  (await sha256Hex(`${sessionId}\n${new Date(start).toISOString()}`)).slice(0, 32);

const cardOf = (cards: BookingCard[] | undefined, cardId: string) => (cards ?? []).find((c) => c.cardId === cardId);
const bookedWith = (cards: BookingCard[] | undefined, key: string) =>
  (cards ?? []).find((c) => c.booking?.key === key && !c.booking.cancelled)?.booking;
const replayed = (b: { uid: string; start: string; end: string }) => ({
  result: { status: "booked", replayed: true, uid: b.uid, start: b.start, end: b.end },
});

type Claim = { mine: true; release: () => Promise<void> } | { mine: false };

/**
 * The slot for this confirmation alone while it books. Another conversation's confirmation of the
 * slot makes this one a "slot taken"; a confirmation of the same conversation (a second tab, the model
 * and the card at once) waits for it, then finds its booking.
 */
async function claimSlot(ctx: EdgeToolContext, site: SiteConfig, start: string, key: string): Promise<Claim> {
  const index = siteIndex(ctx.env, site);
  const me = `${key}:${crypto.randomUUID()}`;
  const deadline = Date.now() + SLOT_CLAIM_MS;
  for (;;) {
    const holder = await index.claimSlot(start, me, SLOT_CLAIM_MS);
    if (holder === me) return { mine: true, release: () => index.releaseSlot(start, me) };
    if (!holder.startsWith(`${key}:`)) return { mine: false };
    if (Date.now() > deadline)
      throw new ApiError(409, "conflict", "This time is still being booked from this conversation; try again");
    await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
  }
}

/** The slot is gone: the card offers the calendar's times as they are now, the visitor's details kept. */
async function offerAfresh(
  ctx: EdgeToolContext,
  cal: CalendarConnector,
  days: number,
  card: BookingCard,
  start: string,
) {
  const slots = (await freeSlots(cal, Date.now(), days)).filter((s) => s !== start);
  const { booking: _none, ...offered } = card;
  const offer = { ...offered, slots: slots.slice(0, 200), notice: "slot_taken" as const };
  const event = await emitBookingEvent(ctx.env, ctx.sessionId, { type: EVENT_TYPES.bookingOffered, data: offer });
  const instruction = "That time was just taken. The card shows the free times now; ask the visitor to pick another.";
  return { result: { status: "slot_taken", cardId: card.cardId, shown: slots.length, instruction }, events: [event] };
}

/**
 * book_slot: books a slot of a card of this session (a time the calendar offered, not one the browser
 * names), once per session and slot. A slot taken meanwhile answers fresh slots on the same card. A
 * calendar that says the slot is taken is asked whether this conversation's own booking took it (a
 * booking whose answer was lost: a timeout, a dropped connection), found by the key it carries.
 */
export async function runBookSlot(ctx: EdgeToolContext, input: ToolInput<typeof bookSlot>): Promise<EdgeToolOutput> {
  const startMs = Date.parse(input.start);
  if (!(startMs > Date.now() + LEAD_MS))
    throw new ApiError(400, "slot_unavailable", `${input.start} has already begun or passed: pick a later time`);
  const start = new Date(startMs).toISOString();
  const key = await bookingKey(ctx.sessionId, start);
  const room = sessionRoom(ctx.env, ctx.sessionId);
  const state = await room.getState();
  const card = cardOf(state.bookings, input.cardId);
  if (!card) throw new ApiError(400, "slot_unavailable", `No slots card ${input.cardId} in this conversation`);
  const done = bookedWith(state.bookings, key);
  if (done) return replayed(done);
  if (!card.slots.includes(start))
    throw new ApiError(400, "slot_unavailable", `${start} is not one of the times card ${input.cardId} offered`);
  const { site, booking, cal } = await calendar(ctx);
  const claim = await claimSlot(ctx, site, start, key);
  if (!claim.mine) return offerAfresh(ctx, cal, booking.daysAhead, card, start);
  try {
    // Booked by this conversation's other confirmation while this one waited for the slot.
    const since = bookedWith((await room.getState()).bookings, key);
    if (since) return replayed(since);
    // The browser's zone is a claim: one this runtime does not know falls back to the calendar's own.
    const timeZone = input.timeZone && knownTimeZone(input.timeZone) ? input.timeZone : (booking.timeZone ?? "UTC");
    const visit = {
      start,
      name: input.name,
      email: input.contact,
      reason: input.reason ?? "",
      timeZone,
      language: input.language ?? "en",
      key,
    };
    let made: { uid: string; start: string; end: string };
    try {
      made = await cal.book(visit);
    } catch (err) {
      if (!(isCalendarError(err) && err.kind === "conflict")) return await calendarCall(() => Promise.reject(err));
      const own = await calendarCall(() => cal.findBooking(visit));
      if (!own) return offerAfresh(ctx, cal, booking.daysAhead, card, start);
      made = own;
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
      timeZone,
    };
    const event = await emitBookingEvent(ctx.env, ctx.sessionId, { type: EVENT_TYPES.bookingCreated, data: booked });
    return {
      result: { status: "booked", replayed: false, uid: made.uid, start: made.start, end: made.end },
      events: [event],
    };
  } finally {
    await claim.release().catch(() => {});
  }
}
