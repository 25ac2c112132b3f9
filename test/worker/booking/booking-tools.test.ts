import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { auth, call, openSession } from "../../helpers/worker/client.ts";
import { putSite } from "../../helpers/worker/sites.ts";
import { fakeCalcom } from "../../helpers/fake-calcom.ts";
import { sessionRoom } from "../../../worker/objects.ts";

/** find_slots, book_slot and cancel_booking through the real tool route, against the fake Cal.com. */
const KEY = "cal_live_test_0123456789";
const VARS = { CALCOM_API_KEY: KEY } as Record<string, string>;
const DAY = 86_400_000;
const at = (days: number, hhmm: string) =>
  `${new Date(Date.now() + days * DAY).toISOString().slice(0, 10)}T${hhmm}:00.000Z`;
const FREE = [at(1, "09:00"), at(1, "09:30"), at(2, "14:00")];
const details = { name: "Ana Silva", contact: "ana@example.com", reason: "Itchy rash", timeZone: "Asia/Shanghai" };

afterEach(() => vi.restoreAllMocks());

async function setup(free = FREE) {
  const cal = fakeCalcom({ key: KEY, eventTypeId: 4321, free });
  vi.spyOn(globalThis, "fetch").mockImplementation(cal.fetch);
  const booking = { provider: "calcom" as const, apiKeySecret: "CALCOM_API_KEY", eventTypeId: 4321 };
  const siteKey = await putSite({ booking });
  const s = await openSession("derm-consult", VARS, { siteKey });
  const tool = async (name: string, args: unknown, callId?: string) => {
    const r = await call(
      `/v1/tools/${name}`,
      { method: "POST", headers: auth(s.token), json: { arguments: args, ...(callId ? { callId } : {}) } },
      VARS,
    );
    const body = (await r.res.json()) as any;
    await r.done();
    return { status: r.res.status, body };
  };
  return { cal, s, tool, state: () => sessionRoom(env, s.sessionId).getState() };
}

describe("booking tools", () => {
  it("offers the calendar's future slots as a card, books once per slot, and cancels", async () => {
    const { cal, s, tool, state } = await setup([at(-1, "09:00"), ...FREE]);
    const found = await tool("find_slots", {});
    expect(found.status).toBe(200);
    const offered = found.body.events[0];
    expect(offered).toMatchObject({ type: "booking.offered", data: { title: "Dermatology visit", slots: FREE } });
    const cardId = offered.data.cardId;
    // The browser's retried confirmation (same call id) and the model's second call (none): one booking.
    const first = await tool("book_slot", { cardId, start: FREE[0], ...details }, "call-book-1");
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({ status: "booked", replayed: false, start: FREE[0] });
    expect(first.body.events[0]).toMatchObject({ type: "booking.created", data: { name: "Ana Silva", cardId } });
    const retry = await tool("book_slot", { cardId, start: FREE[0], ...details }, "call-book-1");
    expect(retry.body.replayed).toBe(true);
    const again = await tool("book_slot", { cardId, start: FREE[0], ...details });
    expect(again.body.result).toMatchObject({ status: "booked", replayed: true, uid: first.body.result.uid });
    expect(cal.requests.filter((r) => r.path === "/v2/bookings")).toHaveLength(1);
    expect(cal.requests.find((r) => r.path === "/v2/bookings")!.body.attendee.timeZone).toBe("Asia/Shanghai");
    const card = (await state()).bookings[0]!;
    expect(card.booking).toMatchObject({ uid: first.body.result.uid, cancelled: false });
    // The key never reaches the browser.
    expect(JSON.stringify([found.body, first.body])).not.toContain(KEY);

    const cancelled = await tool("cancel_booking", { uid: first.body.result.uid });
    expect(cancelled.body.result).toMatchObject({ status: "cancelled", replayed: false });
    expect((await state()).bookings[0]!.booking!.cancelled).toBe(true);
    expect(cal.booked.size).toBe(0);
    expect(s.agent.tools).toEqual(expect.arrayContaining(["find_slots", "book_slot", "cancel_booking"]));
  });

  it("answers a slot taken meanwhile with fresh slots on the same card", async () => {
    const { cal, tool, state } = await setup();
    const cardId = (await tool("find_slots", {})).body.result.cardId;
    cal.takeElsewhere(FREE[0]!);
    const taken = await tool("book_slot", { cardId, start: FREE[0], ...details });
    expect(taken.status).toBe(200);
    expect(taken.body.result).toMatchObject({ status: "slot_taken", cardId, shown: 2 });
    expect(taken.body.events[0].data).toMatchObject({ cardId, notice: "slot_taken", slots: FREE.slice(1) });
    const card = (await state()).bookings.find((c) => c.cardId === cardId)!;
    expect(card.slots).toEqual(FREE.slice(1));
    const ok = await tool("book_slot", { cardId, start: FREE[1], ...details });
    expect(ok.body.result.status).toBe("booked");
  });

  it("refuses a slot in the past, a time no card offered, a card or booking of no one's, and says why", async () => {
    const { cal, tool } = await setup();
    const cardId = (await tool("find_slots", {})).body.result.cardId;
    const past = await tool("book_slot", { cardId, start: at(-1, "09:00"), ...details });
    expect(past.status).toBe(400);
    expect(past.body.error).toMatchObject({ code: "slot_unavailable" });
    expect(past.body.error.message).toMatch(/already begun or passed/);
    const offCard = await tool("book_slot", { cardId, start: at(3, "03:00"), ...details });
    expect(offCard.body.error.code).toBe("slot_unavailable");
    const noCard = await tool("book_slot", { cardId: "slots-someone-else", start: FREE[0], ...details });
    expect(noCard.body.error.message).toMatch(/No slots card/);
    expect((await tool("cancel_booking", { uid: "booking_uid_99" })).status).toBe(404);
    expect(cal.requests.filter((r) => r.path.startsWith("/v2/bookings"))).toHaveLength(0);
  });

  it("turns the calendar's 429, 5xx and garbage into clear errors, and goes on after them", async () => {
    const { cal, tool, state } = await setup();
    cal.fail("429");
    const busy = await tool("find_slots", {});
    expect(busy.status).toBe(503);
    expect(busy.body.error.code).toBe("calendar_busy");
    cal.fail("503");
    expect((await tool("find_slots", {})).body.error.code).toBe("calendar_unavailable");
    cal.fail("garbage");
    const garbage = await tool("find_slots", {});
    expect(garbage.status).toBe(502);
    expect(garbage.body.error).toMatchObject({ code: "calendar_unavailable" });
    expect(garbage.body.error.message).toMatch(/unknown shape/);
    const cardId = (await tool("find_slots", {})).body.result.cardId;
    cal.fail("503");
    expect((await tool("book_slot", { cardId, start: FREE[0], ...details })).status).toBe(502);
    // Nothing was booked by the failed call: the confirmation sent again books.
    const ok = await tool("book_slot", { cardId, start: FREE[0], ...details });
    expect(ok.body.result).toMatchObject({ status: "booked", replayed: false });
    expect((await state()).bookings.filter((c) => c.booking)).toHaveLength(1);
  });

  it("is not offered to an agent of a site without a calendar", async () => {
    const s = await openSession("derm-consult", {}, { siteKey: await putSite({ booking: undefined }) });
    expect(s.agent.tools).not.toContain("find_slots");
    const r = await call("/v1/tools/find_slots", { method: "POST", headers: auth(s.token), json: { arguments: {} } });
    expect(r.res.status).toBe(403);
  });
});
