import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { auth, call, openSession } from "../../helpers/worker/client.ts";
import { putSite } from "../../helpers/worker/sites.ts";
import { fakeCalcom } from "../../helpers/fake-calcom.ts";
import { sessionRoom } from "../../../worker/objects.ts";

/**
 * Confirmations that cross: two of one slot at once (Cal.com itself lets both through: its check
 * and its insert hold no lock, `raceMs`), and a confirmation sent again after its answer was lost.
 */
const KEY = "cal_live_test_0123456789";
const VARS = { CALCOM_API_KEY: KEY } as Record<string, string>;
const DAY = 86_400_000;
const at = (days: number, hhmm: string) =>
  `${new Date(Date.now() + days * DAY).toISOString().slice(0, 10)}T${hhmm}:00.000Z`;
const FREE = [at(1, "09:00"), at(1, "09:30"), at(2, "14:00")];
const details = { name: "Ana Silva", contact: "ana@example.com", reason: "Itchy rash", timeZone: "Europe/Lisbon" };

afterEach(() => vi.restoreAllMocks());

async function setup() {
  const cal = fakeCalcom({ key: KEY, eventTypeId: 4321, free: FREE, raceMs: 50 });
  vi.spyOn(globalThis, "fetch").mockImplementation(cal.fetch);
  const booking = { provider: "calcom" as const, apiKeySecret: "CALCOM_API_KEY", eventTypeId: 4321 };
  const siteKey = await putSite({ booking });
  const visitor = async (contact = details.contact) => {
    const s = await openSession("derm-consult", VARS, { siteKey });
    const tool = async (name: string, args: unknown, callId = crypto.randomUUID()) => {
      const r = await call(
        `/v1/tools/${name}`,
        { method: "POST", headers: auth(s.token), json: { arguments: args, callId } },
        VARS,
      );
      const body = (await r.res.json()) as any;
      await r.done();
      return { status: r.res.status, body };
    };
    const cardId = (await tool("find_slots", {})).body.result.cardId as string;
    const book = (start: string) => tool("book_slot", { cardId, start, ...details, contact });
    return { tool, book, cardId, state: () => sessionRoom(env, s.sessionId).getState() };
  };
  return { cal, visitor };
}

describe("book_slot when confirmations cross", () => {
  it("lets one of two conversations book a slot both confirm at once; the other hears it was taken", async () => {
    const { cal, visitor } = await setup();
    const [ana, ben] = await Promise.all([visitor(), visitor("ben@example.com")]);
    const answers = await Promise.all([ana.book(FREE[0]!), ben.book(FREE[0]!)]);
    expect(cal.created.map((b) => b.start)).toEqual([FREE[0]]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const statuses = answers.map((a) => a.body.result.status).sort();
    expect(statuses).toEqual(["booked", "slot_taken"]);
    const [loser, loserCard] = answers[0]!.body.result.status === "slot_taken" ? [ana, ana.cardId] : [ben, ben.cardId];
    const card = (await loser.state()).bookings.find((c) => c.cardId === loserCard)!;
    // Fresh slots on the same card, without the one taken; nothing booked for the loser.
    expect(card).toMatchObject({ notice: "slot_taken", slots: FREE.slice(1) });
    expect(card.booking).toBeUndefined();
    // The slot is free for the loser's next pick.
    expect((await loser.book(FREE[1]!)).body.result.status).toBe("booked");
  });

  it("books once when one conversation confirms a slot twice at once (two call ids)", async () => {
    const { cal, visitor } = await setup();
    const ana = await visitor();
    const answers = await Promise.all([ana.book(FREE[0]!), ana.book(FREE[0]!)]);
    expect(cal.created).toHaveLength(1);
    expect(answers.map((a) => [a.status, a.body.result.status, a.body.result.uid])).toEqual([
      [200, "booked", cal.created[0]!.uid],
      [200, "booked", cal.created[0]!.uid],
    ]);
    expect(answers.map((a) => a.body.result.replayed).sort()).toEqual([false, true]);
    expect((await ana.state()).bookings.filter((c) => c.booking)).toHaveLength(1);
  });

  it("finds its own booking by its key when Cal.com booked but the answer was lost", async () => {
    const { cal, visitor } = await setup();
    const [ana, ben] = await Promise.all([visitor(), visitor()]);
    cal.fail("lost-answer");
    const lost = await ana.book(FREE[0]!);
    expect([lost.status, lost.body.error.code]).toEqual([502, "calendar_unavailable"]);
    expect(cal.created).toHaveLength(1);
    // The visitor confirms again: Cal.com says the slot is taken (by this very booking); the worker finds it.
    const again = await ana.book(FREE[0]!);
    expect([again.status, again.body.result.status]).toEqual([200, "booked"]);
    expect(again.body.result.uid).toBe(cal.created[0]!.uid);
    expect(cal.created).toHaveLength(1);
    const lookup = cal.requests.find((r) => r.method === "GET" && r.path.startsWith("/v2/bookings?"))!;
    expect(lookup.version).toBe("2024-08-13");
    expect(new URL(lookup.path, "https://x").searchParams.get("attendeeEmail")).toBe("ana@example.com");
    expect((await ana.state()).bookings[0]!.booking).toMatchObject({ uid: cal.created[0]!.uid, cancelled: false });
    // Another conversation's key is not this booking's, the same e-mail address or not: the slot is taken.
    expect((await ben.book(FREE[0]!)).body.result.status).toBe("slot_taken");
  });
});
