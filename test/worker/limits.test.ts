import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { auth, call, openSession } from "../helpers/worker/client.ts";
import { delta, sseResponse, usage } from "../helpers/worker/provider-sse.ts";
import { putSite } from "../helpers/worker/sites.ts";
import { pushToIndex } from "../helpers/worker/index-push.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { utcDay } from "../../worker/limits/site-ledger.ts";
import { reportSiteSpending } from "../../worker/limits/admission.ts";
import { LIMITS } from "../../shared/wire/protocol.ts";
import { siteLedger, sessionRoom, siteIndex } from "../../worker/objects.ts";

afterEach(() => {
  vi.restoreAllMocks();
  clearConfigCache();
});

const json = async (r: Response) => (await r.json()) as any;
const state = (sid: string) => sessionRoom(env, sid).getState();
const ipHeaders = (ip: string) => ({ "cf-connecting-ip": ip });
const newIp = () => `192.0.2.${Math.floor(Math.random() * 250)}-${crypto.randomUUID().slice(0, 6)}`;

async function chat(token: string, content: string, headers: Record<string, string> = {}, vars = {}) {
  const { res, done } = await call(
    "/v1/chat/completions",
    {
      method: "POST",
      json: { stream: true, messages: [{ id: `u-${content}`, role: "user", content }] },
      headers: { ...auth(token), ...headers },
    },
    vars,
  );
  const text = await res.text();
  await done();
  return { res, text };
}

/** A refusal's shape: status, code, Retry-After when there is one to give. */
async function expectRefusal(res: Response, text: string, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(JSON.parse(text).error.code).toBe(code);
}

describe("rate limits", () => {
  it(
    "per client IP: the next request over the limit gets 429 rate_limited with " + "Retry-After, and stores nothing",
    async () => {
      const siteKey = await putSite({ rateLimits: { sessionPerMinute: 100, ipPerMinute: 3 } });
      const ip = newIp();
      const s = await openSession("sales-coach", {}, { siteKey, headers: ipHeaders(ip) }); // 1
      expect((await chat(s.token, "one", ipHeaders(ip))).res.status).toBe(200); // 2
      expect((await chat(s.token, "two", ipHeaders(ip))).res.status).toBe(200); // 3
      const over = await chat(s.token, "three", ipHeaders(ip));
      await expectRefusal(over.res, over.text, 429, "rate_limited");
      const retry = Number(over.res.headers.get("retry-after"));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      expect(JSON.parse(over.text).error.message).toMatch(/at most 3 a minute/);
      const msgs = (await state(s.sessionId)).messages.map((m) => m.id);
      expect(msgs).not.toContain("u-three");
      expect(msgs).toHaveLength(4);
      // Another address on the same site is not held back.
      expect((await chat(s.token, "four", ipHeaders(newIp()))).res.status).toBe(200);
    },
  );

  it(
    "per client IP also holds back opening sessions (so minting sessions does " + "not escape the session limit)",
    async () => {
      const siteKey = await putSite({ rateLimits: { sessionPerMinute: 100, ipPerMinute: 2 } });
      const ip = newIp();
      const opened = [
        await openSession("derm-consult", {}, { siteKey, headers: ipHeaders(ip) }),
        await openSession("derm-consult", {}, { siteKey, headers: ipHeaders(ip) }),
      ];
      const { res, done } = await call("/v1/sessions", {
        method: "POST",
        json: { siteKey, agentId: "derm-consult" },
        headers: ipHeaders(ip),
      });
      await done();
      await expectRefusal(res, await res.clone().text(), 429, "rate_limited");
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      await pushToIndex(...opened.map((o) => o.sessionId));
      expect((await siteIndex(env, { siteKey }).list({}, 10)).length).toBe(2);
    },
  );

  it(
    "per session: 429 past the session's limit, nothing stored; another " + "session from the same address goes on",
    async () => {
      const siteKey = await putSite({ rateLimits: { sessionPerMinute: 2, ipPerMinute: 100 } });
      const s = await openSession("sales-coach", {}, { siteKey });
      expect((await chat(s.token, "a")).res.status).toBe(200);
      expect((await chat(s.token, "b")).res.status).toBe(200);
      const over = await chat(s.token, "c");
      await expectRefusal(over.res, over.text, 429, "rate_limited");
      expect(Number(over.res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(JSON.parse(over.text).error.message).toContain("in this conversation");
      expect((await state(s.sessionId)).messages.map((m) => m.id)).not.toContain("u-c");
      // Edge tools count against the same limit.
      const tool = await call("/v1/tools/knowledge_search", {
        method: "POST",
        json: { arguments: { query: "x" } },
        headers: auth(s.token),
      });
      expect(tool.res.status).toBe(429);
      await tool.done();
      expect((await state(s.sessionId)).trace.filter((t) => t.kind === "tool")).toEqual([]);
      const other = await openSession("sales-coach", {}, { siteKey });
      expect((await chat(other.token, "d")).res.status).toBe(200);
    },
  );
});

describe("token budgets", () => {
  // The sites' provider (a profile), answered by each test's fetch stub.
  const providers = [{ id: "test", baseUrl: "https://provider.test/v1" }];

  it("counts the streamed usage into the session and the site's day, with a completion trace step", async () => {
    const siteKey = await putSite({ providers });
    vi.spyOn(globalThis, "fetch").mockImplementation(async () =>
      sseResponse([delta("Hi"), delta(" there", "stop"), usage(70, 5)]),
    );
    const s = await openSession("derm-consult", {}, { siteKey });
    expect((await chat(s.token, "hello")).res.status).toBe(200);
    const st = await state(s.sessionId);
    expect(st.usage).toEqual({ promptTokens: 70, completionTokens: 5, totalTokens: 75 });
    // Reported to the site's ledger with the isolate's next refill of its slice; here, at once.
    await reportSiteSpending();
    expect(await siteLedger(env, siteKey).spent(utcDay())).toBe(75);
    expect(st.trace.find((t) => t.kind === "completion")).toMatchObject({
      name: "gpt-4o-mini",
      ok: true,
      detail: { status: "complete", promptTokens: 70, completionTokens: 5, retries: 0 },
    });
  });

  it("per session: over budget gets 429 budget_exceeded, the provider never asked, nothing stored", async () => {
    const siteKey = await putSite({ budgets: { sitePerDay: 1_000_000, perSession: 50 }, providers });
    const spy = vi
      .spyOn(globalThis, "fetch")
      .mockImplementation(async () => sseResponse([delta("Hi", "stop"), usage(40, 20)]));
    const s = await openSession("derm-consult", {}, { siteKey });
    expect((await chat(s.token, "first")).res.status).toBe(200);
    const over = await chat(s.token, "second");
    await expectRefusal(over.res, over.text, 429, "budget_exceeded");
    expect(JSON.parse(over.text).error.message).toMatch(
      /This conversation has used its token budget \(60 of 50 tokens\); start a new conversation/,
    );
    // A streamed turn is admitted by the session's object before it calls the provider: none was sent.
    expect(spy).toHaveBeenCalledTimes(1);
    const again = await chat(s.token, "third");
    await expectRefusal(again.res, again.text, 429, "budget_exceeded");
    expect(spy).toHaveBeenCalledTimes(1);
    const st = await state(s.sessionId);
    expect(st.messages.map((m) => m.id)).not.toContain("u-second");
    expect(st.usage.totalTokens).toBe(60);
    // A new conversation on the same site may go on.
    const fresh = await openSession("derm-consult", {}, { siteKey });
    expect((await chat(fresh.token, "again")).res.status).toBe(200);
  });

  it(
    "per site and day: over budget gets 429 budget_exceeded with Retry-After " +
      "until midnight UTC, for every session",
    async () => {
      // A turn reserves its max_tokens cap plus its request's bytes (about 7 000 here) until its usage is known.
      const siteKey = await putSite({ budgets: { sitePerDay: 10_000, perSession: 100_000 }, providers });
      const spy = vi
        .spyOn(globalThis, "fetch")
        .mockImplementation(async () => sseResponse([delta("Hi", "stop"), usage(9_900, 90)]));
      const a = await openSession("derm-consult", {}, { siteKey });
      expect((await chat(a.token, "first")).res.status).toBe(200);
      const b = await openSession("derm-consult", {}, { siteKey });
      const over = await chat(b.token, "second");
      await expectRefusal(over.res, over.text, 429, "budget_exceeded");
      expect(JSON.parse(over.text).error.message).toContain("00:00 UTC");
      const retry = Number(over.res.headers.get("retry-after"));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(86_400);
      expect(spy).toHaveBeenCalledTimes(1);
      expect((await state(b.sessionId)).messages).toEqual([]);
    },
  );
});

describe("request limits", () => {
  it.each([
    [
      "more messages than allowed",
      () => Array.from({ length: LIMITS.maxMessages + 1 }, (_, i) => ({ role: "user", content: `m${i}` })),
    ],
    ["a message longer than allowed", () => [{ role: "user", content: "x".repeat(LIMITS.maxMessageChars + 1) }]],
  ])("refuses %s with 400 validation_failed, storing nothing", async (_name, messages) => {
    const s = await openSession();
    const { res } = await call("/v1/chat/completions", {
      method: "POST",
      json: { messages: messages() },
      headers: auth(s.token),
    });
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe("validation_failed");
    expect((await state(s.sessionId)).messages).toEqual([]);
  });

  it("accepts exactly the limits", async () => {
    const s = await openSession("sales-coach");
    const messages = Array.from({ length: LIMITS.maxMessages }, (_, i) => ({
      role: "user",
      content: i === 0 ? "y".repeat(LIMITS.maxMessageChars) : `m${i}`,
    }));
    const { res, done } = await call("/v1/chat/completions", {
      method: "POST",
      json: { messages },
      headers: auth(s.token),
    });
    expect(res.status).toBe(200);
    await res.text();
    await done();
  });

  it("refuses a body over the size limit with 413 on every JSON route, storing nothing", async () => {
    const s = await openSession("protocol-designer");
    const big = "x".repeat(LIMITS.maxBodyBytes + 10);
    for (const [method, path] of [
      ["POST", "/v1/chat/completions"],
      ["POST", `/v1/sessions/${s.sessionId}/events`],
      ["PATCH", `/v1/sessions/${s.sessionId}/context`],
      ["POST", "/v1/tools/knowledge_search"],
      ["POST", "/v1/sessions"],
    ]) {
      const { res } = await call(path, {
        method,
        body: JSON.stringify({ big }),
        headers: { ...auth(s.token), "content-type": "application/json" },
      });
      expect(res.status, path).toBe(413);
      expect((await json(res)).error.code).toBe("payload_too_large");
    }
    const st = await state(s.sessionId);
    expect(st.messages).toEqual([]);
    expect(st.version).toBe(2); // opened, first stage started
  });
});

describe("rate limits on the session routes", () => {
  it("count stage edits and reads like chat turns: over the session's limit is 429 and nothing changes", async () => {
    const siteKey = await putSite({
      agents: ["protocol-designer"],
      rateLimits: { sessionPerMinute: 3, ipPerMinute: 1000 },
    });
    const ip = newIp();
    const s = await openSession("protocol-designer", {}, { siteKey, headers: ipHeaders(ip) });
    const patch = (value: string) =>
      call(`/v1/sessions/${s.sessionId}/context`, {
        method: "PATCH",
        headers: { ...auth(s.token), ...ipHeaders(ip) },
        json: { stageId: "question", field: "rationale", value, baseVersion: 0 },
      });
    expect(
      (await call(`/v1/sessions/${s.sessionId}`, { headers: { ...auth(s.token), ...ipHeaders(ip) } })).res.status,
    ).toBe(200); // 1
    expect((await patch("first")).res.status).toBe(200); // 2
    expect(
      (await call(`/v1/sessions/${s.sessionId}/trace`, { headers: { ...auth(s.token), ...ipHeaders(ip) } })).res.status,
    ).toBe(200); // 3
    const over = await patch("second");
    expect(over.res.status).toBe(429);
    expect(over.res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await json(over.res)).error.code).toBe("rate_limited");
    expect((await state(s.sessionId)).context.question).toEqual({ rationale: "first" });
  });
});
