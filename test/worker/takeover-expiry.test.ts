import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { openSession } from "../helpers/worker/client.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { PRESENCE_TTL_MS } from "../../shared/takeover/takeover-api.ts";
import { putSite, sha256Hex } from "../helpers/worker/sites.ts";
import { ADMIN, json, stateOf, staff, takeoverSite, visitor } from "../helpers/worker/takeover.ts";
import type { LiveOverview } from "../../shared/takeover/takeover-api.ts";
import { sessionRoom, siteIndex } from "../../worker/objects.ts";

afterEach(() => clearConfigCache());

/** A site with takeover on, Mei's Live page open, and a visitor queued for a person. */
async function queued(takeover: object = { enabled: true }) {
  const siteKey = await takeoverSite(takeover);
  const mei = await staff(siteKey);
  await mei.beat();
  const s = await openSession("derm-consult", {}, { siteKey });
  expect(await json(await visitor(s.token, s.sessionId).ask("billing"))).toMatchObject({ status: "queued" });
  const queue = async () => (await json<LiveOverview>(await mei.get("/v1/admin/live"))).queue.map((q) => q.sessionId);
  expect(await queue()).toEqual([s.sessionId]);
  return { siteKey, mei, s, queue, room: sessionRoom(env, s.sessionId) };
}

/** Mei's page died without saying so: her last heartbeat is older than the presence TTL. */
async function presenceLapses(siteKey: string) {
  await runInDurableObject(siteIndex(env, { siteKey }), (_obj, state) => {
    state.storage.sql.exec("UPDATE staff_presence SET seen = ?", Date.now() - PRESENCE_TTL_MS - 1_000);
  });
}

const types = async (sid: string) => (await sessionRoom(env, sid).getEvents()).map((e) => e.event.type);

describe("a queued request for a person, when nobody can come any more", () => {
  it("is told so by the session's alarm once staff presence lapses, and leaves the Live page's queue", async () => {
    const { siteKey, s, queue, room } = await queued();
    // Staff still present: the alarm looks, changes nothing, and looks again later.
    expect(await runDurableObjectAlarm(room)).toBe(true);
    expect((await stateOf(s.sessionId)).personRequest?.status).toBe("queued");
    const next = await runInDurableObject(room, (_obj, state) => state.storage.getAlarm());
    expect(next).not.toBeNull();

    // The visitor's widget follows the session's live channel (its SSE form here).
    const seen = (await room.getEvents()).at(-1)!.seq;
    const reader = (await room.follow(seen)).pipeThrough(new TextDecoderStream()).getReader();
    await presenceLapses(siteKey);
    expect(await runDurableObjectAlarm(room)).toBe(true);
    let live = "";
    while (!live.includes("person.unavailable")) live += (await reader.read()).value ?? "";
    await reader.cancel();
    expect(live).toMatch(/Nobody from our team/);
    const state = await stateOf(s.sessionId);
    expect(state.personRequest).toMatchObject({
      status: "unavailable",
      unavailable: { reason: "no_staff", message: expect.stringMatching(/Nobody from our team/) },
    });
    expect(await queue()).toEqual([]);
    // Looked at again (another alarm): told once.
    await runInDurableObject(room, (obj) => obj.checkQueue());
    expect((await types(s.sessionId)).filter((t) => t === "person.unavailable")).toHaveLength(1);
  });

  it("is told so after the site's maximum wait, in the visitor's language, with staff still present", async () => {
    const { s, queue, room } = await queued({
      enabled: true,
      maxWaitMinutes: 3,
      unavailableMessage: { en: "We are all busy", "zh-CN": "都在忙" },
    });
    await runInDurableObject(room, (obj) => obj.checkQueue(Date.now() + 2 * 60_000));
    expect((await stateOf(s.sessionId)).personRequest?.status).toBe("queued");
    await runInDurableObject(room, (obj) => obj.checkQueue(Date.now() + 3 * 60_000 + 1));
    expect((await stateOf(s.sessionId)).personRequest).toMatchObject({
      status: "unavailable",
      unavailable: { reason: "waited_too_long", message: "We are all busy" },
    });
    expect(await queue()).toEqual([]);
  });

  it(
    "changes nothing when a staff member joined first; a join " + "after 'nobody available' still comes through",
    async () => {
      const first = await queued();
      expect((await first.mei.join(first.s.sessionId)).status).toBe(200);
      await presenceLapses(first.siteKey);
      await runDurableObjectAlarm(first.room);
      await runInDurableObject(first.room, (obj) => obj.checkQueue(Date.now() + 60 * 60_000));
      expect(await types(first.s.sessionId)).not.toContain("person.unavailable");
      expect((await stateOf(first.s.sessionId)).handler).toMatchObject({ kind: "person", name: "Mei" });

      const late = await queued();
      await presenceLapses(late.siteKey);
      await runDurableObjectAlarm(late.room);
      expect((await stateOf(late.s.sessionId)).personRequest?.status).toBe("unavailable");
      // Mei comes back and joins: the visitor is told a person joined.
      await late.mei.beat();
      expect((await late.mei.join(late.s.sessionId)).status).toBe(200);
      const state = await stateOf(late.s.sessionId);
      expect(state.handler).toMatchObject({ kind: "person", name: "Mei" });
      expect(state.personRequest).toBeNull();
      expect((await types(late.s.sessionId)).slice(-3)).toContain("staff.joined");
    },
  );

  it("is told 'outside hours' when the site's hours end while it waits", async () => {
    const { siteKey, s, queue, room } = await queued();
    // The owner's hours now exclude this moment (one minute, yesterday's weekday), staff still present.
    const day = (new Date().getUTCDay() + 6) % 7;
    const hours = { timeZone: "UTC", windows: [{ days: [day], from: "00:00", to: "00:01" }] };
    await putSite({ siteKey, adminKeySha256: await sha256Hex(ADMIN), takeover: { enabled: true, hours } } as never);
    expect(await runDurableObjectAlarm(room)).toBe(true);
    expect((await stateOf(s.sessionId)).personRequest?.unavailable?.reason).toBe("outside_hours");
    expect(await queue()).toEqual([]);
  });
});
