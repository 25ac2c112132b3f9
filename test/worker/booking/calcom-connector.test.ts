import { describe, expect, it } from "vitest";
import { calcomConnector } from "../../../worker/booking/calcom-connector.ts";
import { CalendarError } from "../../../worker/booking/calendar-connector.ts";
import { fakeCalcom } from "../../helpers/fake-calcom.ts";
import bookingRequest from "../../fixtures/calcom/booking-request.json";

/** The Cal.com connector against the local fake of API v2: the documented requests, each answer checked. */
const KEY = "cal_live_test_0123456789";
const config = {
  provider: "calcom",
  apiKeySecret: "CALCOM_API_KEY",
  eventTypeId: 4321,
  baseUrl: "https://api.cal.com",
};
const FREE = ["2050-09-05T07:00:00.000Z", "2050-09-05T07:30:00.000Z", "2050-09-06T12:00:00.000Z"];
const visit = {
  start: FREE[0]!,
  name: "Ana Silva",
  email: "ana@example.com",
  reason: "Itchy rash on the arm",
  timeZone: "Europe/Lisbon",
  language: "en",
  key: "0123456789abcdef0123456789abcdef",
};

function setup() {
  const cal = fakeCalcom({ key: KEY, eventTypeId: 4321, free: FREE });
  return { cal, conn: calcomConnector({ ...config, provider: "calcom", daysAhead: 14 }, KEY, cal.fetch) };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: CalendarError) => e.kind,
  );

describe("Cal.com connector (API v2)", () => {
  it("reads the event type and the slots, books with the documented body, and cancels", async () => {
    const { cal, conn } = setup();
    expect(await conn.eventType()).toEqual({ title: "Dermatology visit", lengthMinutes: 30 });
    // Slots arrive keyed by day with the zone's offset; the connector answers UTC starts, earliest first.
    expect(await conn.slots("2050-09-05", "2050-09-06")).toEqual(FREE);
    const made = await conn.book(visit);
    expect(made).toEqual({ uid: "booking_uid_1", start: FREE[0], end: "2050-09-05T07:30:00.000Z" });
    const post = cal.requests.find((r) => r.method === "POST")!;
    expect(post).toMatchObject({ path: "/v2/bookings", version: "2024-08-13" });
    expect(post.body).toEqual(bookingRequest);
    expect(await conn.slots("2050-09-05", "2050-09-05")).toEqual([FREE[1]]);
    await conn.cancel(made.uid, "changed plans");
    expect(cal.requests.at(-1)).toMatchObject({
      path: "/v2/bookings/booking_uid_1/cancel",
      body: { cancellationReason: "changed plans" },
    });
    expect(await conn.slots("2050-09-05", "2050-09-05")).toEqual(FREE.slice(0, 2));
  });

  it("tells a taken slot from the calendar's other failures", async () => {
    const { cal, conn } = setup();
    cal.takeElsewhere(FREE[0]!);
    expect(await failure(conn.book(visit))).toBe("conflict");
    cal.fail("429");
    expect(await failure(conn.slots("2050-09-05", "2050-09-06"))).toBe("busy");
    cal.fail("503");
    expect(await failure(conn.eventType())).toBe("unavailable");
    cal.fail("garbage");
    expect(await failure(conn.slots("2050-09-05", "2050-09-06"))).toBe("bad_answer");
    cal.fail("wrong-shape");
    expect(await failure(conn.book({ ...visit, start: FREE[1]! }))).toBe("bad_answer");
    // A wrong key is the calendar's refusal, not a conflict.
    const wrong = calcomConnector({ ...config, provider: "calcom", daysAhead: 14 }, "cal_live_wrong", cal.fetch);
    expect(await failure(wrong.slots("2050-09-05", "2050-09-06"))).toBe("refused");
    // After the faults, the calendar answers again.
    expect(await conn.slots("2050-09-06", "2050-09-06")).toEqual([FREE[2]]);
  });

  it("finds the booking its key made, not a cancelled one nor another key's", async () => {
    const { cal, conn } = setup();
    expect(await conn.findBooking(visit)).toBeNull();
    const made = await conn.book(visit);
    await conn.book({ ...visit, start: FREE[1]!, key: "ffffffffffffffffffffffffffffffff" });
    expect(await conn.findBooking(visit)).toEqual(made);
    const lookup = cal.requests.at(-1)!;
    expect(lookup).toMatchObject({ method: "GET", version: "2024-08-13" });
    expect(Object.fromEntries(new URL(lookup.path, "https://x").searchParams)).toEqual({
      eventTypeId: "4321",
      attendeeEmail: "ana@example.com",
      afterStart: "2050-09-05T06:59:00.000Z",
      beforeEnd: "2050-09-06T07:00:00.000Z",
      take: "100",
    });
    expect(await conn.findBooking({ ...visit, key: "0000000000000000000000000000000f" })).toBeNull();
    await conn.cancel(made.uid, "changed plans");
    expect(await conn.findBooking(visit)).toBeNull();
    cal.fail("garbage");
    expect(await failure(conn.findBooking(visit))).toBe("bad_answer");
  });
});
