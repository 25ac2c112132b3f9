import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import type { Env } from "../../worker/env.ts";
import { auth, call, openSession, readSse } from "../helpers/worker/client.ts";
import { delta, sseResponse } from "../helpers/worker/provider-sse.ts";
import { providerSite } from "../helpers/worker/sites.ts";
import { sessionRoom } from "../../worker/objects.ts";

afterEach(() => vi.restoreAllMocks());

/** The site's provider (a profile): `fetch` is stubbed below, so its answers are the test's. */
let siteKey: string;
beforeAll(async () => {
  siteKey = await providerSite("https://provider.test/v1");
});
const enc = new TextEncoder();
const json = async (r: Response) => (await r.json()) as any;
const state = (sid: string) => sessionRoom(env, sid).getState();

const good = () => sseResponse([delta("Hello"), delta(" again", "stop")]);
const providerError = (status: number, headers: Record<string, string> = {}) =>
  Response.json({ error: { message: `fake ${status}` } }, { status, headers });

/** fetch answers these, in order; the last one repeats. */
function provider(...answers: Array<() => Response | Promise<Response>>) {
  let n = 0;
  return vi.spyOn(globalThis, "fetch").mockImplementation(async () => answers[Math.min(n++, answers.length - 1)]());
}

async function turn(stream = true, vars: Partial<Env> = {}) {
  const s = await openSession("derm-consult", {}, { siteKey });
  const started = Date.now();
  const { res, done } = await call(
    "/v1/chat/completions",
    {
      method: "POST",
      json: { stream, messages: [{ id: "u", role: "user", content: "hi" }], parley: { replyId: "r" } },
      headers: auth(s.token),
    },
    vars,
  );
  const body = res.status === 200 && stream ? await readSse(res) : await res.text();
  await done();
  return { s, res, body, ms: Date.now() - started, st: await state(s.sessionId) };
}

describe("provider faults before anything was streamed: bounded retries with backoff", () => {
  it.each([
    ["a 500", () => providerError(500)],
    ["a 503", () => providerError(503)],
    ["a connection reset", () => Promise.reject(new TypeError("Network connection lost"))],
    ["a stream that breaks before its first byte", () => sseResponse([], { failAt: 0 })],
  ])("retries %s and streams the reply; the trace shows the retry", async (_name, fault) => {
    const spy = provider(fault, good);
    const { res, body, st } = await turn();
    expect(res.status).toBe(200);
    expect(body.at(-1)).toBe("[DONE]");
    expect(spy).toHaveBeenCalledTimes(2);
    expect(st.messages.map((m) => [m.id, m.status])).toEqual([
      ["u", undefined],
      ["r", "complete"],
    ]);
    expect(st.messages[1].content).toBe("Hello again");
    const retry = st.trace.find((t) => t.kind === "retry");
    expect(retry).toMatchObject({ ok: false, detail: { retry: 1, waitMs: 200, replyId: "r" } });
    expect(st.trace.find((t) => t.kind === "completion")).toMatchObject({
      ok: true,
      detail: { status: "complete", attempts: 2, retries: 1 },
    });
  });

  it("honours a 429's Retry-After (capped at 2 s)", async () => {
    const spy = provider(
      () => providerError(429, { "retry-after": "1" }),
      () => providerError(429, { "retry-after": "3600" }),
      good,
    );
    const { res, ms, st } = await turn();
    expect(res.status).toBe(200);
    expect(spy).toHaveBeenCalledTimes(3);
    expect(st.trace.filter((t) => t.kind === "retry").map((t) => t.detail?.waitMs)).toEqual([1000, 2000]);
    expect(ms).toBeGreaterThanOrEqual(2900);
  });

  it(
    "gives up after two retries: 502 naming the provider's answer, the " +
      "visitor's message kept, a failed completion traced",
    async () => {
      const spy = provider(() => providerError(502));
      const { res, body, st } = await turn();
      expect(res.status).toBe(502);
      expect(JSON.parse(body as string).error).toMatchObject({ code: "upstream_error", status: 502 });
      expect(spy).toHaveBeenCalledTimes(3);
      expect(st.messages.map((m) => m.id)).toEqual(["u"]);
      expect(st.trace.filter((t) => t.kind === "retry")).toHaveLength(2);
      expect(st.trace.find((t) => t.kind === "completion")).toMatchObject({
        ok: false,
        detail: { status: "failed", attempts: 3, retries: 2, error: "upstream_error" },
      });
      expect(st.usage.totalTokens).toBe(0);
    },
  );

  it("retries a provider that does not answer in time, then answers 504 upstream_timeout", async () => {
    const spy = vi
      .spyOn(globalThis, "fetch")
      .mockImplementation(
        (_url, init) =>
          new Promise((_, reject) =>
            (init as RequestInit).signal!.addEventListener("abort", () =>
              reject(new DOMException("aborted", "AbortError")),
            ),
          ),
      );
    // Not streamed: the route's own env sets the timeout (a streamed reply's object reads its bindings).
    const { res, body, st } = await turn(false, { LLM_TIMEOUT_MS: "50" });
    expect(res.status).toBe(504);
    expect(JSON.parse(body as string).error.code).toBe("upstream_timeout");
    expect(spy).toHaveBeenCalledTimes(3);
    expect(st.trace.find((t) => t.kind === "completion")).toMatchObject({
      detail: { status: "failed", error: "upstream_timeout" },
    });
  });

  it("does not retry what a retry cannot fix (a 400)", async () => {
    const spy = provider(() => providerError(400));
    const { res } = await turn();
    expect(res.status).toBe(502);
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it("retries a non-streamed request whose reply broke off halfway", async () => {
    const half = () =>
      new Response(
        new ReadableStream({
          pull: (c) => {
            c.enqueue(enc.encode('{"choi'));
            c.error(new TypeError("reset"));
          },
        }),
      );
    const whole = () =>
      Response.json({
        id: "x",
        object: "chat.completion",
        model: "m",
        choices: [{ index: 0, message: { role: "assistant", content: "Fine" }, finish_reason: "stop" }],
        usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
      });
    const spy = provider(half, whole);
    const { res, st } = await turn(false);
    expect(res.status).toBe(200);
    expect(spy).toHaveBeenCalledTimes(2);
    expect(st.messages[1]).toMatchObject({ id: "r", content: "Fine", status: "complete" });
    expect(st.usage.totalTokens).toBe(4);
  });
});

describe("edge tools that fail never break the turn", () => {
  it("a failing search provider answers a JSON error the loop can hand the model, and is traced", async () => {
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("Network connection lost"));
    const s = await openSession("medical-qa");
    const { res, done } = await call(
      "/v1/tools/web_search",
      { method: "POST", json: { arguments: { query: "q" }, callId: "c9" }, headers: auth(s.token) },
      { TAVILY_API_KEY: "tvly-x" },
    );
    expect(res.status).toBe(502);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect((await json(res)).error.code).toBe("tool_failed");
    await done();
    expect((await state(s.sessionId)).trace.at(-1)).toMatchObject({
      kind: "tool",
      name: "web_search",
      ok: false,
      detail: { callId: "c9" },
    });
  });

  it("a tool that hangs is cut off: 504 tool_failed after the tool timeout", async () => {
    // The search answers headers, then never finishes its body.
    vi.spyOn(globalThis, "fetch").mockResolvedValue(
      new Response(new ReadableStream({ pull: () => new Promise(() => {}) }), { status: 200 }),
    );
    const s = await openSession("medical-qa");
    const started = Date.now();
    const { res, done } = await call(
      "/v1/tools/web_search",
      { method: "POST", json: { arguments: { query: "q" } }, headers: auth(s.token) },
      { TAVILY_API_KEY: "tvly-x", TOOL_TIMEOUT_MS: "100" },
    );
    expect(res.status).toBe(504);
    const body = await json(res);
    expect(body.error).toMatchObject({ code: "tool_failed" });
    expect(body.error.message).toContain("did not finish within 0.1 s");
    expect(Date.now() - started).toBeLessThan(2000);
    await done();
    expect((await state(s.sessionId)).trace.at(-1)).toMatchObject({ kind: "tool", ok: false });
  });
});
