import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import type { SessionResponse } from "../../shared/wire/api.ts";
import type { SessionSummary } from "../../shared/session/session-summary.ts";
import { DEMO_ADMIN_KEY } from "../../worker/demo/index.ts";
import { agreeToPhotos, auth, call, openSession, readSse } from "../helpers/worker/client.ts";
import { pushToIndex } from "../helpers/worker/index-push.ts";
import { delta, sseResponse } from "../helpers/worker/provider-sse.ts";
import { putSite } from "../helpers/worker/sites.ts";
import { bareJpeg } from "../helpers/photo-bytes.ts";
import { sessionRoom } from "../../worker/objects.ts";

/**
 * Keep nothing (`keepNothingMinutes`): the conversation's object erases itself, by its alarm, the site's
 * minutes after the last message (its events, tables, photos), and the site's index keeps the counts and
 * no text. The minutes pass here as a clock would make them: the object's record of its last message is
 * moved back, then its alarm is run (runDurableObjectAlarm).
 */
/** The sites' provider (a profile), answered by say()'s stub. */
const providers = [{ id: "test", baseUrl: "https://provider.test/v1" }];
const MINUTE = 60_000;
const json = async (r: Response) => (await r.json()) as any;

afterEach(() => vi.restoreAllMocks());

async function say(s: SessionResponse, id: string, content: string) {
  vi.spyOn(globalThis, "fetch").mockResolvedValue(sseResponse([delta("Keep the rash dry.", "stop")]));
  const { res, done } = await call("/v1/chat/completions", {
    method: "POST",
    headers: auth(s.token),
    json: { stream: true, messages: [{ id, role: "user", content }], parley: { replyId: `re-${id}` } },
  });
  await readSse(res);
  await done();
  vi.restoreAllMocks();
}

/** What the object holds: its events, its stored records, its alarm and its last message's time. */
const stored = (s: SessionResponse) =>
  runInDurableObject(sessionRoom(env, s.sessionId), async (_room, state) => ({
    events: state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) n FROM events").one().n,
    records: [...state.storage.kv.list()].length,
    alarm: await state.storage.getAlarm(),
    lastMessageAt: state.storage.kv.get<number>("lastMessageAt"),
  }));

/** The clock moves on `ms` past the last message. */
const later = (s: SessionResponse, ms: number) =>
  runInDurableObject(sessionRoom(env, s.sessionId), (_room, state) => {
    state.storage.kv.put("lastMessageAt", state.storage.kv.get<number>("lastMessageAt")! - ms);
  });

const row = async (siteKey: string, sessionId: string): Promise<SessionSummary | undefined> => {
  const { res } = await call(`/v1/admin/sessions?site=${siteKey}`, {
    headers: { "x-parley-admin-key": DEMO_ADMIN_KEY },
  });
  return (await json(res)).sessions.find((r: SessionSummary) => r.sessionId === sessionId);
};

describe("keep nothing", () => {
  it("erases the object, its photos and text N minutes after the last message; the index keeps counts", async () => {
    const siteKey = await putSite({ keepNothingMinutes: 5, providers });
    const s = await openSession("derm-consult", {}, { siteKey });
    await agreeToPhotos(s);
    const upload = await call(`/v1/sessions/${s.sessionId}/photos`, {
      method: "POST",
      body: bareJpeg(),
      headers: { ...auth(s.token), "content-type": "image/jpeg" },
    });
    expect(upload.res.status).toBe(201);
    await say(s, "q1", "My arm itches, my email is jane@example.com");

    // The index push runs, and the object's alarm is then set for five minutes after the last message.
    await pushToIndex(s.sessionId);
    const before = await stored(s);
    expect(before.alarm).toBe(before.lastMessageAt! + 5 * MINUTE);
    expect(await row(siteKey, s.sessionId)).toMatchObject({ messages: 2, firstText: "" });

    // Four minutes on, its alarm erases nothing.
    await later(s, 4 * MINUTE);
    expect(await runDurableObjectAlarm(sessionRoom(env, s.sessionId))).toBe(true);
    expect((await sessionRoom(env, s.sessionId).getState()).messages).toHaveLength(2);

    // Five: the object's storage, listed, is empty; so is its photo folder; its token finds nothing.
    await later(s, MINUTE + 1);
    expect(await runDurableObjectAlarm(sessionRoom(env, s.sessionId))).toBe(true);
    expect(await stored(s)).toEqual({ events: 0, records: 0, alarm: null, lastMessageAt: undefined });
    expect((await env.PHOTOS.list({ prefix: `photos/${siteKey}/${s.sessionId}/` })).objects).toHaveLength(0);
    expect((await call(`/v1/sessions/${s.sessionId}`, { headers: auth(s.token) })).res.status).toBe(404);
    const owner = await call(`/v1/admin/sessions/${s.sessionId}?site=${siteKey}`, {
      headers: { "x-parley-admin-key": DEMO_ADMIN_KEY },
    });
    expect(owner.res.status).toBe(404);
    // The owner's index keeps the conversation's counts, and no word of it.
    const kept = await row(siteKey, s.sessionId);
    expect(kept).toMatchObject({ messages: 2, firstText: "", agentId: "derm-consult" });
    expect(JSON.stringify(kept)).not.toContain("jane@example.com");
  });

  it("moves the erasure with every message", async () => {
    const siteKey = await putSite({ keepNothingMinutes: 5, providers });
    const s = await openSession("derm-consult", {}, { siteKey });
    await say(s, "q1", "first");
    await later(s, 10 * MINUTE);
    await say(s, "q2", "second");
    // The alarm that rings next (the index push) erases nothing, and sets the erasure five minutes after q2.
    expect(await runDurableObjectAlarm(sessionRoom(env, s.sessionId))).toBe(true);
    expect((await sessionRoom(env, s.sessionId).getState()).messages).toHaveLength(4);
    const { alarm, lastMessageAt } = await stored(s);
    expect(lastMessageAt).toBeGreaterThan(Date.now() - MINUTE);
    expect(alarm).toBe(lastMessageAt! + 5 * MINUTE);
  });

  it("leaves a site without it as it was: no erasure time, the conversation kept by the retention", async () => {
    const siteKey = await putSite({ providers });
    const s = await openSession("derm-consult", {}, { siteKey });
    await say(s, "q1", "My arm itches");
    await pushToIndex(s.sessionId);
    expect((await stored(s)).lastMessageAt).toBeUndefined();
    // Even a last message a day old changes nothing.
    await runInDurableObject(sessionRoom(env, s.sessionId), (_room, state) =>
      state.storage.kv.put("lastMessageAt", Date.now() - 24 * 60 * MINUTE),
    );
    await runInDurableObject(sessionRoom(env, s.sessionId), (_room, state) =>
      state.storage.setAlarm(Date.now() + MINUTE),
    );
    expect(await runDurableObjectAlarm(sessionRoom(env, s.sessionId))).toBe(true);
    expect((await sessionRoom(env, s.sessionId).getState()).messages).toHaveLength(2);
    expect(await row(siteKey, s.sessionId)).toMatchObject({ messages: 2, firstText: "My arm itches" });
  });
});

describe("the owner's settings (PUT /v1/admin/site)", () => {
  const settings = async (siteKey: string, change: Record<string, unknown> = {}) => {
    const get = await call(`/v1/admin/site?site=${siteKey}`, { headers: { "x-parley-admin-key": DEMO_ADMIN_KEY } });
    const { allowedOrigins, models, rateLimits, budgets, desk, retentionDays, takeover } = (await json(get.res)).site;
    const form = { allowedOrigins, models, rateLimits, budgets, desk, retentionDays, takeover, ...change };
    const { res } = await call(`/v1/admin/site?site=${siteKey}`, {
      method: "PUT",
      json: form,
      headers: { "x-parley-admin-key": DEMO_ADMIN_KEY },
    });
    return { status: res.status, body: await json(res) };
  };

  it("sets keep nothing (1 to 1440 minutes), off when left out; redaction is kept when left out", async () => {
    const siteKey = await putSite({ redactTraces: true, providers });
    for (const minutes of [0, 1441, 2.5]) {
      const refused = await settings(siteKey, { keepNothingMinutes: minutes });
      expect(refused.status, String(minutes)).toBe(400);
      expect(refused.body.error.issues.map((i: { path: string }) => i.path)).toContain("keepNothingMinutes");
    }
    const on = await settings(siteKey, { keepNothingMinutes: 30, redactTraces: false });
    expect(on.status).toBe(200);
    expect(on.body.site).toMatchObject({ keepNothingMinutes: 30, redactTraces: false });
    const s = await openSession("derm-consult", {}, { siteKey });
    expect(s.agent.keepNothingMinutes).toBe(30);
    const off = await settings(siteKey, { redactTraces: true });
    expect(off.body.site.keepNothingMinutes).toBeUndefined();
    expect((await settings(siteKey)).body.site.redactTraces).toBe(true);
  });
});
