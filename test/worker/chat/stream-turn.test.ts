import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { auth, call, openSession, readSse } from "../../helpers/worker/client.ts";
import { delta, sseResponse } from "../../helpers/worker/provider-sse.ts";
import { providerSite } from "../../helpers/worker/sites.ts";
import { SessionRoom } from "../../../worker/session/session-room.ts";

afterEach(() => vi.restoreAllMocks());

const PROVIDER = "https://provider.test/v1";

describe("a streamed turn handed to the session's object", () => {
  it("carries no secret: the object reads the provider's and the classifier's keys from its own env", async () => {
    const seen: Array<{ path: string; authorization: string | null }> = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      seen.push({ path: url.pathname, authorization: new Headers(init?.headers).get("authorization") });
      if (url.pathname.endsWith("/moderations"))
        return Response.json({ results: [{ flagged: false, categories: {} }] });
      return sseResponse([delta("Chamomile "), delta("may help.", "stop")]);
    });
    const handed = vi.spyOn(SessionRoom.prototype, "streamReply");
    // The profile names its key's secret; the classifier is reached with the worker's own key.
    const siteKey = await providerSite(
      PROVIDER,
      { safety: { classifier: { kind: "moderation", baseUrl: PROVIDER } } },
      { keyEnv: "LLM_TEST_KEY" },
    );
    const s = await openSession("medical-qa", {}, { siteKey });
    const { res, done } = await call("/v1/chat/completions", {
      method: "POST",
      json: { stream: true, messages: [{ id: "m1", role: "user", content: "Which tea helps me sleep?" }] },
      headers: auth(s.token),
    });
    expect(res.status).toBe(200);
    expect((await readSse(res)).at(-1)).toBe("[DONE]");
    await done();

    // What the object was handed: the turn, as its method received it across the call.
    expect(handed).toHaveBeenCalledTimes(1);
    const turn = handed.mock.calls[0][0];
    const payload = JSON.stringify(turn);
    for (const secret of [env.LLM_TEST_KEY, env.LLM_API_KEY, env.SESSION_SECRET]) {
      expect(secret).toBeTruthy();
      expect(payload).not.toContain(secret);
    }
    expect(turn).not.toHaveProperty("env");
    // The turn had the classifier to run, and the profile's key to read: both were named, neither carried.
    expect(payload).toContain("moderation");
    expect(payload).toContain("LLM_TEST_KEY");
    // The keys were used all the same, each read where the request was made.
    expect(seen).toContainEqual({ path: "/v1/chat/completions", authorization: `Bearer ${env.LLM_TEST_KEY}` });
    expect(seen).toContainEqual({ path: "/v1/moderations", authorization: `Bearer ${env.LLM_API_KEY}` });
  });
});
