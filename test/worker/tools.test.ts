import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { auth, call, openSession } from "../helpers/worker/client.ts";
import { sessionRoom } from "../../worker/objects.ts";

afterEach(() => vi.restoreAllMocks());

function runTool(token: string, name: string, json: unknown, vars = {}) {
  return call(`/v1/tools/${name}`, { method: "POST", json, headers: auth(token) }, vars);
}

describe("POST /v1/tools/:name", () => {
  it("runs knowledge_search over the tenant's documents, English and Chinese, and traces it", async () => {
    const s = await openSession("medical-qa");
    const en = await runTool(s.token, "knowledge_search", {
      arguments: JSON.stringify({ query: "can I take ibuprofen and paracetamol together" }),
      callId: "c1",
    });
    expect(en.res.status).toBe(200);
    const body = (await en.res.json()) as any;
    expect(body.result.hits[0].id).toBe("med-ibuprofen");
    await en.done();
    const zh = await runTool(s.token, "knowledge_search", {
      arguments: { query: "布洛芬和对乙酰氨基酚能一起吃吗", top_k: 2 },
    });
    const zhBody = (await zh.res.json()) as any;
    expect(zhBody.result.hits).toHaveLength(2);
    expect(zhBody.result.hits[0].id).toBe("med-ibuprofen-zh");
    const trace = (await sessionRoom(env, s.sessionId).getState()).trace;
    expect(trace[0]).toMatchObject({
      kind: "tool",
      name: "knowledge_search",
      ok: true,
      detail: { side: "edge", callId: "c1" },
    });
  });

  it("answers web_search from fixtures without a key", async () => {
    const s = await openSession("medical-qa");
    const { res } = await runTool(s.token, "web_search", { arguments: { query: "paracetamol ibuprofen together" } });
    const body = (await res.json()) as any;
    expect(body.result.source).toBe("fixtures");
    expect(body.result.results[0].url).toMatch(/^https:\/\//);
  });

  it("calls Tavily with the worker's key, never sending it back", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockResolvedValue(
      Response.json({
        answer: null,
        results: [
          { title: "T", url: "https://a.example/x", content: "snippet" },
          { title: "bad", url: "javascript:alert(1)", content: "" },
        ],
      }),
    );
    const s = await openSession("medical-qa");
    const { res } = await runTool(
      s.token,
      "web_search",
      { arguments: { query: "q", max_results: 3 } },
      { TAVILY_API_KEY: "tvly-secret" },
    );
    const text = await res.text();
    expect(JSON.parse(text).result).toEqual({
      source: "tavily",
      results: [{ title: "T", url: "https://a.example/x", snippet: "snippet" }],
    });
    expect(text).not.toContain("tvly-secret");
    const [url, init] = spy.mock.calls[0] as [string, RequestInit];
    expect(url).toBe("https://api.tavily.com/search");
    expect(new Headers(init.headers).get("authorization")).toBe("Bearer tvly-secret");
    expect(JSON.parse(init.body as string)).toMatchObject({ query: "q", max_results: 3, include_answer: false });
  });

  it("answers a search provider failure with 502 and records a failed trace step", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("busy", { status: 503 }));
    const s = await openSession("medical-qa");
    const { res, done } = await runTool(
      s.token,
      "web_search",
      { arguments: { query: "q" } },
      { TAVILY_API_KEY: "tvly-secret" },
    );
    expect(res.status).toBe(502);
    expect(((await res.json()) as any).error).toMatchObject({ code: "tool_failed", status: 503 });
    await done();
    expect((await sessionRoom(env, s.sessionId).getState()).trace[0]).toMatchObject({ name: "web_search", ok: false });
  });

  it.each([
    ["an unknown tool", "rm_rf", { arguments: {} }, 404, "not_found"],
    ["a client-side tool", "record_advice", { arguments: {} }, 404, "not_found"],
    ["invalid arguments", "knowledge_search", { arguments: { query: "" } }, 400, "validation_failed"],
    ["arguments that are not JSON", "knowledge_search", { arguments: "{query:" }, 400, "validation_failed"],
    ["a body of the wrong shape", "knowledge_search", { args: {} }, 400, "validation_failed"],
  ])("refuses %s", async (_n, name, json, status, code) => {
    const s = await openSession("medical-qa");
    const { res } = await runTool(s.token, name, json);
    expect(res.status).toBe(status);
    expect(((await res.json()) as any).error.code).toBe(code);
  });

  it("refuses a tool the session's agent was not given", async () => {
    const s = await openSession("derm-consult");
    const { res } = await runTool(s.token, "web_search", { arguments: { query: "x" } });
    expect(res.status).toBe(403);
  });

  it("requires a session token", async () => {
    const { res } = await call("/v1/tools/web_search", { method: "POST", json: { arguments: { query: "x" } } });
    expect(res.status).toBe(401);
  });
});

describe("router purposes on the chat route", () => {
  it("records a classification as a trace step, not as a message", async () => {
    const s = await openSession("medical-qa");
    const { res, done } = await call("/v1/chat/completions", {
      method: "POST",
      headers: auth(s.token),
      json: {
        messages: [{ id: "q", role: "user", content: "Can I take ibuprofen with paracetamol?" }],
        parley: { purpose: "classify", replyId: "cls" },
      },
    });
    const completion = (await res.json()) as any;
    expect(JSON.parse(completion.choices[0].message.tool_calls[0].function.arguments)).toMatchObject({
      intent: "medicine_info",
    });
    await done();
    const state = await sessionRoom(env, s.sessionId).getState();
    expect(state.messages.map((m) => m.id)).toEqual(["q"]);
    expect(state.trace[0]).toMatchObject({ kind: "classify", detail: { intent: "medicine_info" } });
  });
});
