/**
 * What booking needs of a calendar, and no more, so a second connector (Google Calendar, a clinic
 * system's webhook) is one more file: Cal.com's is calcom-connector.ts, the demo's worker/demo/.
 */
export interface CalendarConnector {
  /** The bookable event: its title and length. */
  eventType(): Promise<{ title: string; lengthMinutes: number }>;
  /** Free starts (ISO 8601, UTC) from `from` to `to` (YYYY-MM-DD, inclusive), earliest first. */
  slots(from: string, to: string): Promise<string[]>;
  /** Books `start`; a slot taken meanwhile throws a CalendarError of kind `conflict`. */
  book(visit: VisitRequest): Promise<{ uid: string; start: string; end: string }>;
  cancel(uid: string, reason: string): Promise<void>;
  /**
   * The booking this visit's key made, if the calendar has it (not cancelled): a booking whose answer
   * was lost (a timeout, a dropped connection) is found again rather than refused as a taken slot.
   */
  findBooking(visit: VisitRequest): Promise<{ uid: string; start: string; end: string } | null>;
}

export interface VisitRequest {
  start: string;
  name: string;
  email: string;
  reason: string;
  timeZone: string;
  language: string;
  /** The worker's idempotency key for this booking (session and slot), passed along as metadata. */
  key: string;
}

export const CALENDAR_FAILURES = ["conflict", "busy", "unavailable", "bad_answer", "refused"] as const;
export type CalendarFailure = (typeof CALENDAR_FAILURES)[number];

/** A calendar's failure, by kind: the tools turn each into a clear answer (booking-tools.ts). */
export class CalendarError extends Error {
  override name = "CalendarError";
  constructor(
    readonly kind: CalendarFailure,
    message: string,
    /** Seconds the calendar asked to wait (its Retry-After on a 429). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export const isCalendarError = (e: unknown): e is CalendarError =>
  e instanceof CalendarError || (e as Error | null)?.name === "CalendarError";
