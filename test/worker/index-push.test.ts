import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { auth, call, openSession } from "../helpers/worker/client.ts";
import { sessionRoom } from "../../worker/session/session-stub.ts";
import { INDEX_DELAY_MS, INDEX_WHILE_STREAMING_MS } from "../../worker/session/index-push.ts";

const slow = () => ({ LLM_BASE_URL: inject("slowUpstreamUrl"), LLM_API_KEY: "sk-test-secret" });
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
    const s = await openSession();
    // The session's opening is pushed first (its alarm, run now).
    expect(await runDurableObjectAlarm(sessionRoom(env, s.sessionId))).toBe(true);
    const json = {
      stream: true,
      messages: [{ id: "ip-q", role: "user", content: "index" }],
      parley: { replyId: "ip-a" },
    };
    const { res, done } = await call("/v1/chat/completions", { method: "POST", json, headers: auth(s.token) }, slow());
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
