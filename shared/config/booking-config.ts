import { z } from "zod/mini";
import { TimeZone } from "./time-zone.ts";

/** Calendars a site can connect; each is a connector on the worker (worker/booking/). */
export const CALENDAR_PROVIDERS = ["calcom"] as const;

/**
 * A site's calendar for booking in the chat. The API key is a worker secret named here (set with
 * `wrangler secret put`), as the CRM's is: it never reaches the browser or the site's KV record.
 */
export const SiteBooking = z.object({
  provider: z.enum(CALENDAR_PROVIDERS),
  /** The worker secret holding the calendar's API key (Cal.com: a `cal_live_...` key). */
  apiKeySecret: z.string().check(z.regex(/^[A-Z][A-Z0-9_]{2,63}$/)),
  /** The event type visitors book (Cal.com's numeric event type id). */
  eventTypeId: z.int().check(z.positive()),
  /** The calendar's API origin; Cal.com's cloud unless the owner runs their own instance. */
  baseUrl: z._default(z.string().check(z.regex(/^https:\/\/[^/?#@]+$/)), "https://api.cal.com"),
  /** How far ahead find_slots looks, in days. */
  daysAhead: z._default(z.int().check(z.gte(1), z.lte(30)), 14),
  /** The calendar's own time zone: a visit's zone when the visitor's browser named none (or one unknown). */
  timeZone: z.optional(TimeZone),
});
export type SiteBooking = z.infer<typeof SiteBooking>;
export type SiteBookingInput = z.input<typeof SiteBooking>;

/**
 * The start every calendar key's secret name must have. The worker sends the named secret to the
 * calendar's `baseUrl`, which the owner sets: without a namespace an owner could name one of the
 * worker's own secrets (its session secret, a model provider's key) and have it sent to their server.
 */
export const CALENDAR_SECRET_PREFIX = "CALCOM_";

/**
 * The calendar as the owner's console reads it: the settings, and whether the worker secret they name
 * is set (never its value, which the worker alone holds).
 */
export interface BookingSettingsView {
  booking: SiteBooking | null;
  keySet: boolean;
  /** Demo mode: the demo calendar answers, whatever the settings say. */
  demo: boolean;
}
