import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { auth, call, openSession, SITE_KEY } from "../helpers/worker/client.ts";
import { delta, sseResponse } from "../helpers/worker/provider-sse.ts";
import { putSite } from "../helpers/worker/sites.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { signToken } from "../../worker/session/token.ts";
import { sessionRoom } from "../../worker/objects.ts";

afterEach(() => {
  vi.restoreAllMocks();
  clearConfigCache();
});

const json = async (r: Response) => (await r.json()) as any;

describe("site origins", () => {
  it(
    "opens a session from the worker's own origin (the iframe embed page), " +
      "even when the site lists only its own pages",
    async () => {
      const siteKey = await putSite({ allowedOrigins: ["https://clinic.example"] });
      const own = await call("https://parley.example/v1/sessions", {
        method: "POST",
        json: { siteKey, agentId: "derm-consult" },
        headers: { origin: "https://parley.example" },
      });
      expect(own.res.status).toBe(201);
      const page = await call("/v1/sessions", {
        method: "POST",
        json: { siteKey, agentId: "derm-consult" },
        headers: { origin: "https://clinic.example" },
      });
      expect(page.res.status).toBe(201);
    },
  );

  it("refuses an origin the site does not list, on opening and on later calls, storing nothing", async () => {
    const siteKey = await putSite({ allowedOrigins: ["https://clinic.example"] });
    const open = await call("https://parley.example/v1/sessions", {
      method: "POST",
      json: { siteKey, agentId: "derm-consult" },
      headers: { origin: "https://evil.example" },
    });
    expect(open.res.status).toBe(403);
    expect((await json(open.res)).error.code).toBe("forbidden_origin");

    const s = await openSession("derm-consult", {}, { siteKey, headers: { origin: "https://clinic.example" } });
    const chat = await call("/v1/chat/completions", {
      method: "POST",
      json: { messages: [{ role: "user", content: "hi" }] },
      headers: { ...auth(s.token), origin: "https://evil.example" },
    });
    expect(chat.res.status).toBe(403);
    expect((await json(chat.res)).error.code).toBe("forbidden_origin");
    const get = await call(`/v1/sessions/${s.sessionId}`, {
      headers: { ...auth(s.token), origin: "https://evil.example" },
    });
    expect(get.res.status).toBe(403);
    expect((await sessionRoom(env, s.sessionId).getState()).messages).toEqual([]);
  });

  it("answers CORS only for allowed origins, and lets the admin key header through", async () => {
    const ok = await call("/v1/admin/sessions", {
      method: "OPTIONS",
      headers: { "access-control-request-method": "GET", "access-control-request-headers": "x-parley-admin-key" },
    });
    expect(ok.res.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:8787");
    expect(ok.res.headers.get("access-control-allow-headers")).toContain("x-parley-admin-key");
    const evil = await call("/v1/chat/completions", {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(evil.res.headers.get("access-control-allow-origin")).toBeNull();
    await env.CONFIG.put("origin:https://clinic.example", "1");
    const kv = await call("/v1/chat/completions", {
      method: "OPTIONS",
      headers: { origin: "https://clinic.example", "access-control-request-method": "POST" },
    });
    expect(kv.res.headers.get("access-control-allow-origin")).toBe("https://clinic.example");
  });
});

describe("one session's token never reaches another session", () => {
  const routes: Array<[string, string, (sid: string) => string, unknown?]> = [
    ["GET", "state", (sid) => `/v1/sessions/${sid}`],
    [
      "POST",
      "events",
      (sid) => `/v1/sessions/${sid}/events`,
      {
        events: [{ id: "trace:x", at: 1, type: "trace.step", data: { kind: "completion", ok: true } }],
      },
    ],
    ["GET", "context", (sid) => `/v1/sessions/${sid}/context`],
    [
      "PATCH",
      "context edit",
      (sid) => `/v1/sessions/${sid}/context`,
      { stageId: "question", field: "research_question", value: "Hijacked?", baseVersion: 0 },
    ],
    ["POST", "stage completion", (sid) => `/v1/sessions/${sid}/stages/question/complete`],
    [
      "POST",
      "action result",
      (sid) => `/v1/sessions/${sid}/actions/pubmed`,
      { stageId: "question", result: { q: "x" } },
    ],
    ["GET", "trace", (sid) => `/v1/sessions/${sid}/trace`],
  ];

  it.each(routes)(
    "%s %s: 403 with another session's token, nothing read or written",
    async (method, _name, path, body) => {
      const a = await openSession("protocol-designer");
      const b = await openSession("protocol-designer");
      const before = await sessionRoom(env, b.sessionId).getState();
      const { res } = await call(path(b.sessionId), {
        method,
        headers: auth(a.token),
        ...(body ? { json: body } : {}),
      });
      expect(res.status).toBe(403);
      const text = await res.text();
      expect(JSON.parse(text).error.code).toBe("forbidden");
      expect(text).not.toContain(b.sessionId);
      expect(await sessionRoom(env, b.sessionId).getState()).toEqual(before);
      // The same call with b's own token passes the guard (whatever the route then answers).
      const own = await call(path(b.sessionId), { method, headers: auth(b.token), ...(body ? { json: body } : {}) });
      expect(own.res.status).not.toBe(403);
    },
  );

  it.each(routes)(
    "%s %s: 401 with a token whose claims were edited to name the other session",
    async (method, _name, path, body) => {
      const a = await openSession("protocol-designer");
      const b = await openSession("protocol-designer");
      const [claims, sig] = a.token.split(".");
      const edited = JSON.parse(atob(claims.replace(/-/g, "+").replace(/_/g, "/")));
      edited.sid = b.sessionId;
      const forgedBody = btoa(JSON.stringify(edited)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      const before = await sessionRoom(env, b.sessionId).getState();
      const { res } = await call(path(b.sessionId), {
        method,
        headers: auth(`${forgedBody}.${sig}`),
        ...(body ? { json: body } : {}),
      });
      expect(res.status).toBe(401);
      expect((await json(res)).error.code).toBe("unauthorized");
      expect(await sessionRoom(env, b.sessionId).getState()).toEqual(before);
    },
  );

  it("chat and tool calls write only into the token's own session", async () => {
    const a = await openSession("medical-qa");
    const b = await openSession("medical-qa");
    // A session id in the URL or body is never read: the token names the session.
    const chat = await call(`/v1/chat/completions?session=${b.sessionId}`, {
      method: "POST",
      json: { messages: [{ id: "u", role: "user", content: "hello" }] },
      headers: auth(a.token),
    });
    expect(chat.res.status).toBe(200);
    await chat.done();
    const tool = await call("/v1/tools/knowledge_search", {
      method: "POST",
      json: { arguments: { query: "ibuprofen" } },
      headers: { ...auth(a.token), "x-parley-session-id": b.sessionId },
    });
    expect(tool.res.status).toBe(200);
    await tool.done();
    const sb = await sessionRoom(env, b.sessionId).getState();
    expect(sb.messages).toEqual([]);
    expect(sb.trace).toEqual([]);
    expect((await sessionRoom(env, a.sessionId).getState()).messages.map((m) => m.id)[0]).toBe("u");
  });

  it("a token signed for a session that was never opened reads nothing and cannot chat", async () => {
    const sid = crypto.randomUUID();
    const token = await signToken(
      { sid, site: SITE_KEY, agent: "derm-consult", exp: Math.floor(Date.now() / 1000) + 60 },
      env.SESSION_SECRET!,
    );
    const get = await call(`/v1/sessions/${sid}`, { headers: auth(token) });
    expect(get.res.status).toBe(404);
    const chat = await call("/v1/chat/completions", {
      method: "POST",
      json: { messages: [{ role: "user", content: "hi" }] },
      headers: auth(token),
    });
    expect(chat.res.status).toBe(404);
    expect((await sessionRoom(env, sid).getState()).messages).toEqual([]);
  });
});

describe("models and max_tokens per site", () => {
  it(
    "forwards a model on the site's allowlist, refuses others (nothing " + "stored), caps max_tokens at the site's cap",
    async () => {
      // Its provider is a profile, answered by the stub below.
      const providers = [{ id: "test", baseUrl: "https://provider.test/v1" }];
      const siteKey = await putSite({ models: ["gpt-4o"], maxTokens: 300, providers });
      const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => sseResponse([delta("ok", "stop")]));
      const s = await openSession("derm-consult", {}, { siteKey });
      const ok = await call("/v1/chat/completions", {
        method: "POST",
        json: { model: "gpt-4o", stream: true, max_tokens: 5000, messages: [{ role: "user", content: "hi" }] },
        headers: auth(s.token),
      });
      expect(ok.res.status).toBe(200);
      await ok.res.text();
      await ok.done();
      const sent = JSON.parse((spy.mock.calls[0][1] as RequestInit).body as string);
      expect(sent.model).toBe("gpt-4o");
      expect(sent.max_tokens).toBe(300);

      const other = await openSession("derm-consult", {}, { siteKey });
      const bad = await call("/v1/chat/completions", {
        method: "POST",
        json: { model: "gpt-5-pro", messages: [{ id: "x", role: "user", content: "hi" }] },
        headers: auth(other.token),
      });
      expect(bad.res.status).toBe(400);
      expect((await json(bad.res)).error.code).toBe("model_not_allowed");
      expect(spy).toHaveBeenCalledTimes(1);
      expect((await sessionRoom(env, other.sessionId).getState()).messages).toEqual([]);
    },
  );

  it("names the broken field of a site config in KV", async () => {
    const siteKey = await putSite({ rateLimits: { sessionPerMinute: -1, ipPerMinute: 10 } });
    const { res } = await call("/v1/sessions", { method: "POST", json: { siteKey, agentId: "derm-consult" } });
    expect(res.status).toBe(502);
    const body = await json(res);
    expect(body.error.code).toBe("misconfigured");
    expect(body.error.message).toContain("rateLimits.sessionPerMinute");
  });
});
