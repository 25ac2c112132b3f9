import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import type { ToolInput } from "../../shared/tools/tool.ts";
import type { cancelBooking, findSlots } from "../../shared/tools/booking.ts";
import { ApiError } from "../errors.ts";
import type { EdgeToolContext, EdgeToolOutput } from "../tools/registry.ts";
import { emitBookingEvent } from "./booking-events.ts";
import { calendar, calendarCall, freeSlots } from "./calendar-calls.ts";
import { sessionRoom } from "../objects.ts";

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
