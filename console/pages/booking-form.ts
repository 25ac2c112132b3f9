import { CALENDAR_SECRET_PREFIX, type SiteBooking, type SiteBookingInput } from "../../shared/config/booking-config.ts";

/** The Booking page's fields as they hold them (pure: tested without a page). */
export interface BookingForm {
  provider: string;
  eventTypeId: string;
  apiKeySecret: string;
  timeZone: string;
  daysAhead: string;
  baseUrl: string;
}

export const DEFAULT_BASE_URL = "https://api.cal.com";

export function bookingForm(b: SiteBooking | null): BookingForm {
  return {
    provider: b?.provider ?? "calcom",
    eventTypeId: b ? String(b.eventTypeId) : "",
    apiKeySecret: b?.apiKeySecret ?? `${CALENDAR_SECRET_PREFIX}API_KEY`,
    timeZone: b?.timeZone ?? "",
    daysAhead: String(b?.daysAhead ?? 14),
    baseUrl: b?.baseUrl ?? DEFAULT_BASE_URL,
  };
}

/** A number field's text as sent: a number when it is one, else the text, which the worker refuses at the field. */
const num = (v: string) => (v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v.trim());

/** What the form sends: the worker checks every field and answers each problem at its field. */
export function bookingBody(f: BookingForm): SiteBookingInput {
  return {
    provider: f.provider as SiteBookingInput["provider"],
    eventTypeId: num(f.eventTypeId) as number,
    apiKeySecret: f.apiKeySecret.trim(),
    ...(f.timeZone.trim() ? { timeZone: f.timeZone.trim() } : {}),
    daysAhead: num(f.daysAhead) as number,
    baseUrl: f.baseUrl.trim().replace(/\/+$/, "") || DEFAULT_BASE_URL,
  };
}
