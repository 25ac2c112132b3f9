import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { auth, call, openSession } from "../helpers/worker/client.ts";
import { providerSite } from "../helpers/worker/sites.ts";
import { INDEX_DELAY_MS, INDEX_WHILE_STREAMING_MS, IndexPushes } from "../../worker/session/index-push.ts";
import type { Env } from "../../worker/env.ts";
import type { SessionStep } from "../../shared/session/session-summary.ts";
import { sessionRoom } from "../../worker/objects.ts";

/** A site whose provider (a profile) answers over a real socket, one chunk every 50 ms. */
const slowSite = providerSite(inject("slowUpstreamUrl"));
const alarmIn = async (sessionId: string) => {
  const at = await runInDurableObject(sessionRoom(env, sessionId), (_obj, state) => state.storage.getAlarm());
  return at === null ? null : at - Date.now();
};

/**
 * A turn reaches the site's index (one object per site) in one push: the visitor's message waits
 * for the reply, whose end is pushed INDEX_DELAY_MS after it; a reply that never ends is still
 * listed within INDEX_WHILE_STREAMING_MS.
 */
describe("a session's pushes to the site's index", () => {
  it("wait for the streaming reply, then go INDEX_DELAY_MS after its end", async () => {
    const s = await openSession("derm-consult", {}, { siteKey: await slowSite });
    // The session's opening is pushed first (its alarm, run now).
    expect(await runDurableObjectAlarm(sessionRoom(env, s.sessionId))).toBe(true);
    const json = {
      stream: true,
      messages: [{ id: "ip-q", role: "user", content: "index" }],
      parley: { replyId: "ip-a" },
    };
    const { res, done } = await call("/v1/chat/completions", { method: "POST", json, headers: auth(s.token) });
    const reader = res.body!.getReader();
    // The reply has begun, and the visitor's message is stored (just after the start is answered).
    await reader.read();
    await new Promise((r) => setTimeout(r, 100));
    const whileStreaming = await alarmIn(s.sessionId);
    expect(whileStreaming).not.toBeNull();
    expect(whileStreaming!).toBeGreaterThan(INDEX_WHILE_STREAMING_MS - 5_000);

    while (!(await reader.read()).done);
    await done();
    const afterEnd = await alarmIn(s.sessionId);
    expect(afterEnd).not.toBeNull();
    expect(afterEnd!).toBeLessThanOrEqual(INDEX_DELAY_MS);
  });
});

describe("a push to the site's index", () => {
  it("sends the summary and only the steps new or changed since the last push", async () => {
    const s = await openSession();
    const turn = async (n: number) => {
      const json = {
        messages: [{ id: `ip-q${n}`, role: "user", content: `step ${n}` }],
        parley: { replyId: `ip-a${n}` },
      };
      const { res, done } = await call("/v1/chat/completions", { method: "POST", json, headers: auth(s.token) });
      expect(res.status).toBe(200);
      await res.text();
      await done();
      return sessionRoom(env, s.sessionId).getState();
    };
    const sent: SessionStep[][] = [];
    const index = { record: async (_site: string, _summary: unknown, steps: SessionStep[]) => void sent.push(steps) };
    const fakeEnv = { SITE_INDEX: { idFromName: (n: string) => n, get: () => index } } as unknown as Env;
    const pushes = new IndexPushes();

    const first = await turn(1);
    await pushes.push(fakeEnv, first);
    expect(sent[0].length).toBeGreaterThan(0);
    await pushes.push(fakeEnv, first);
    expect(sent[1]).toEqual([]);
    const second = await turn(2);
    await pushes.push(fakeEnv, second);
    expect(sent[2].length).toBeGreaterThan(0);
    expect(sent[2].every((step) => !sent[0].some((t) => t.id === step.id))).toBe(true);
    // After an erase (or in a new object) everything goes again.
    pushes.clear();
    await pushes.push(fakeEnv, second);
    expect(sent[3].map((t) => t.id).sort()).toEqual([...sent[0], ...sent[2]].map((t) => t.id).sort());
  });
});
