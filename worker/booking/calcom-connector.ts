import { z } from "zod/mini";
import type { SiteBooking } from "../../shared/config/booking-config.ts";
import { CalendarError, type CalendarConnector, type VisitRequest } from "./calendar-connector.ts";

/**
 * Cal.com API v2 (cal.com/docs/api-reference/v2): each endpoint pins the `cal-api-version` its
 * reference documents, and each answer is checked against the fields read from it (the shapes are
 * recorded in test/fixtures/calcom/): a body in another shape is a `bad_answer`, not a crash.
 */
const VERSIONS = { eventTypes: "2024-06-14", slots: "2024-09-04", bookings: "2024-08-13" } as const;
const TIMEOUT_MS = 8_000;

const Ok = <T extends z.ZodMiniType>(data: T) => z.object({ status: z.literal("success"), data });
const EventTypeAnswer = Ok(z.object({ lengthInMinutes: z.int().check(z.positive()), title: z.string() }));
const SlotsAnswer = Ok(z.record(z.string(), z.array(z.object({ start: z.string() }))));
const BookingAnswer = Ok(z.object({ uid: z.string().check(z.minLength(1)), start: z.string(), end: z.string() }));
const BookingsAnswer = Ok(z.array(z.unknown()));
/** One booking of a list, as far as the lookup reads it; other shapes in the list (recurring ones) are skipped. */
const ListedBooking = z.object({
  uid: z.string().check(z.minLength(1)),
  start: z.string(),
  end: z.string(),
  status: z.optional(z.string()),
  metadata: z.optional(z.record(z.string(), z.unknown())),
});
const ErrorAnswer = z.object({ error: z.object({ message: z.optional(z.string()) }) });

/** Cal.com refuses a taken slot with a 400 or 409 whose message says the host is not free. */
const TAKEN = /already has booking|not available|no available users|no_available_users|booking_time_out_of_bounds/i;

export function calcomConnector(config: SiteBooking, apiKey: string, fetcher: typeof fetch = fetch): CalendarConnector {
  const base = config.baseUrl.replace(/\/$/, "");

  async function send<S extends z.ZodMiniType>(
    what: string,
    path: string,
    version: string,
    answer: S,
    body?: unknown,
  ): Promise<z.output<S>> {
    let res: Response;
    try {
      res = await fetcher(`${base}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: {
          authorization: `Bearer ${apiKey}`,
          "cal-api-version": version,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new CalendarError("unavailable", `Cal.com did not answer ${what}: ${(err as Error).name}`);
    }
    const raw = await res.text().catch(() => "");
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = undefined;
    }
    if (res.status === 429) {
      const wait = Number(res.headers.get("retry-after"));
      throw new CalendarError("busy", `Cal.com is rate limiting ${what} (HTTP 429)`, wait > 0 ? wait : undefined);
    }
    if (res.status >= 500) throw new CalendarError("unavailable", `Cal.com failed ${what} (HTTP ${res.status})`);
    if (!res.ok) {
      const message = ErrorAnswer.safeParse(json).data?.error.message ?? "";
      if ((res.status === 400 || res.status === 409) && TAKEN.test(message))
        throw new CalendarError("conflict", `Cal.com: the slot is taken (${message.slice(0, 120)})`);
      // The calendar's words are the owner's (a wrong key, an unknown event type): they stay in the trace.
      throw new CalendarError("refused", `Cal.com refused ${what} (HTTP ${res.status}) ${message.slice(0, 200)}`);
    }
    const parsed = answer.safeParse(json);
    if (!parsed.success) throw new CalendarError("bad_answer", `Cal.com answered ${what} in an unknown shape`);
    return parsed.data as z.output<S>;
  }

  return {
    async eventType() {
      const { data } = await send(
        "the event type",
        `/v2/event-types/${config.eventTypeId}`,
        VERSIONS.eventTypes,
        EventTypeAnswer,
      );
      return { title: data.title.slice(0, 200), lengthMinutes: data.lengthInMinutes };
    },
    async slots(from, to) {
      const q = new URLSearchParams({ eventTypeId: String(config.eventTypeId), start: from, end: to, timeZone: "UTC" });
      const { data } = await send("the free slots", `/v2/slots?${q}`, VERSIONS.slots, SlotsAnswer);
      const starts = Object.values(data).flatMap((day) => day.map((s) => new Date(s.start)));
      if (starts.some((d) => Number.isNaN(d.getTime())))
        throw new CalendarError("bad_answer", "Cal.com answered a slot that is not a time");
      return [...new Set(starts.map((d) => d.toISOString()))].sort();
    },
    async book(v: VisitRequest) {
      const body = {
        start: v.start,
        eventTypeId: config.eventTypeId,
        attendee: { name: v.name, email: v.email, timeZone: v.timeZone, language: v.language },
        ...(v.reason ? { bookingFieldsResponses: { notes: v.reason } } : {}),
        metadata: { parleyKey: v.key },
      };
      const { data } = await send("the booking", "/v2/bookings", VERSIONS.bookings, BookingAnswer, body);
      return { uid: data.uid, start: new Date(data.start).toISOString(), end: new Date(data.end).toISOString() };
    },
    async findBooking(v: VisitRequest) {
      // Cal.com filters bookings by event type, attendee and time, not by metadata: those narrow the
      // list to this visitor's bookings around the slot, and the key the booking carries picks it out.
      const from = Date.parse(v.start);
      const q = new URLSearchParams({
        eventTypeId: String(config.eventTypeId),
        attendeeEmail: v.email,
        afterStart: new Date(from - 60_000).toISOString(),
        beforeEnd: new Date(from + 86_400_000).toISOString(),
        take: "100",
      });
      const { data } = await send("the booking lookup", `/v2/bookings?${q}`, VERSIONS.bookings, BookingsAnswer);
      for (const item of data) {
        const b = ListedBooking.safeParse(item).data;
        if (!b || b.metadata?.parleyKey !== v.key || /cancel|reject/i.test(b.status ?? "")) continue;
        return { uid: b.uid, start: new Date(b.start).toISOString(), end: new Date(b.end).toISOString() };
      }
      return null;
    },
    async cancel(uid, reason) {
      await send(
        "the cancellation",
        `/v2/bookings/${encodeURIComponent(uid)}/cancel`,
        VERSIONS.bookings,
        Ok(z.unknown()),
        { cancellationReason: reason },
      );
    },
  };
}
