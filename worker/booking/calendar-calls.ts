import { loadSite } from "../config/config-store.ts";
import { ApiError } from "../errors.ts";
import type { EdgeToolContext } from "../tools/registry.ts";
import { siteCalendar } from "./booking-calendar.ts";
import { isCalendarError, type CalendarConnector } from "./calendar-connector.ts";

const DAY_MS = 86_400_000;
/** A slot must start at least this far ahead: a visit cannot be booked as it begins. */
export const LEAD_MS = 60_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The site of a tool call, its booking settings and its calendar. */
export async function calendar(ctx: EdgeToolContext) {
  const site = await loadSite(ctx.env, ctx.siteKey);
  if (!site?.booking) throw new ApiError(400, "misconfigured", "This site has no calendar connected (booking)");
  return { site, booking: site.booking, cal: await siteCalendar(ctx.env, site) };
}

/** A calendar's failure as the answer a visitor and the model can act on; the details stay in the trace. */
export async function calendarCall<T>(run: () => Promise<T>): Promise<T> {
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

/** The calendar's free starts from `fromMs` for `days` days, those far enough ahead to book. */
export async function freeSlots(cal: CalendarConnector, fromMs: number, days: number): Promise<string[]> {
  const now = Date.now();
  const slots = await calendarCall(() => cal.slots(day(fromMs), day(fromMs + days * DAY_MS)));
  return slots.filter((s) => Date.parse(s) > now + LEAD_MS);
}
