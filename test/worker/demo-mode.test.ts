import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { auth, call, openSession, SITE_KEY } from "../helpers/worker/client.ts";
import { putSite } from "../helpers/worker/sites.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { DEMO_ADMIN_KEY, PRESET_AGENTS } from "../../worker/demo/index.ts";

afterEach(() => {
  vi.restoreAllMocks();
  clearConfigCache();
});

/** The worker as `wrangler.toml` deploys it: a paid provider configured, no DEMO_MODE, nothing in KV for the demo. */
const DEPLOYED = { DEMO_MODE: "", LLM_BASE_URL: "https://provider.example/v1", LLM_API_KEY: "sk-owner-paid" };
/** A forged loopback Origin: curl can send any. */
const FORGED = { origin: "http://127.0.0.1:8787" };
const json = async (r: Response) => (await r.json()) as any;
/** Scripts and styles only the demo site uses (widget/demo). */
const DEMO_FILES = ["/demo.js", "/portal.js", "/hostile.css", "/clinic.css", "/portal.css"];
const openDemoSite = (vars = {}) =>
  call("/v1/sessions", { method: "POST", json: { siteKey: SITE_KEY, agentId: "derm-consult" }, headers: FORGED }, vars);
const demoAdmin = (vars = {}) =>
  call(`/v1/admin/sessions?site=${SITE_KEY}`, { headers: { "x-parley-admin-key": DEMO_ADMIN_KEY } }, vars);
const preflight = (vars = {}) =>
  call("/v1/sessions", { method: "OPTIONS", headers: { ...FORGED, "access-control-request-method": "POST" } }, vars);

describe("a deployed worker (no DEMO_MODE), as an attacker finds it", () => {
  it("refuses the demo site key from a forged loopback origin and never calls the provider", async () => {
    const provider = vi.spyOn(globalThis, "fetch");
    const { res } = await openDemoSite(DEPLOYED);
    expect(res.status).toBe(403);
    expect((await json(res)).error.code).toBe("unknown_site");
    expect(provider).not.toHaveBeenCalled();
  });

  it("answers the admin route with the published demo admin key 401", async () => {
    const { res } = await demoAdmin(DEPLOYED);
    expect(res.status).toBe(401);
    expect((await json(res)).error.code).toBe("unauthorized");
  });

  it("knows no loopback origin in CORS, no demo embed page or demo pages, and says the demo is off", async () => {
    const cors = await preflight(DEPLOYED);
    expect(cors.res.headers.get("access-control-allow-origin")).toBeNull();
    const embed = await call(`/embed/derm-consult?site=${SITE_KEY}`, {}, DEPLOYED);
    expect(embed.res.status).toBe(404);
    expect(await json((await call("/v1/health", {}, DEPLOYED)).res)).toEqual({ ok: true, demo: false });
    for (const page of ["/", "/index.html", "/qa.html", "/portal.html"]) {
      const { res } = await call(page, {}, DEPLOYED);
      expect(res.status, page).toBe(404);
      const body = await res.text();
      expect(JSON.parse(body).error.code).toBe("not_found");
      expect(body, page).not.toContain(SITE_KEY);
    }
  });

  it("serves none of the demo's scripts and styles (wrangler.toml sends them to the worker first)", async () => {
    for (const file of DEMO_FILES) {
      const { res } = await call(file, {}, DEPLOYED);
      expect(res.status, file).toBe(404);
      expect((await json(res)).error.code).toBe("not_found");
    }
  });

  it("serves a site and agent installed in KV; without a provider, chat is 503 provider_not_configured", async () => {
    const siteKey = await putSite({ tenantId: `t-${crypto.randomUUID()}`, allowedOrigins: ["https://clinic.example"] });
    await env.CONFIG.put("agent:medical-qa", JSON.stringify(PRESET_AGENTS["medical-qa"]));
    const noProvider = { DEMO_MODE: "" };
    const headers = { origin: "https://clinic.example" };
    const s = await openSession("medical-qa", noProvider, { siteKey, headers });
    const provider = vi.spyOn(globalThis, "fetch");
    // Not streamed: the route calls the provider with this request's env (a deployed worker's). A streamed
    // turn is run by the session's object, which reads the test worker's own bindings (demo mode on).
    const chat = await call(
      "/v1/chat/completions",
      {
        method: "POST",
        json: { messages: [{ id: "q", role: "user", content: "Hello" }] },
        headers: { ...headers, ...auth(s.token) },
      },
      noProvider,
    );
    expect(chat.res.status).toBe(503);
    expect((await json(chat.res)).error.code).toBe("provider_not_configured");
    await chat.done();
    // No demo documents and no web fixtures for a tenant the owner has not filled.
    const tool = (name: string, query: string) =>
      call(
        `/v1/tools/${name}`,
        {
          method: "POST",
          json: { arguments: { query } },
          headers: { ...headers, ...auth(s.token) },
        },
        noProvider,
      );
    const knowledge = await tool("knowledge_search", "ibuprofen paracetamol");
    expect((await json(knowledge.res)).result.hits).toEqual([]);
    const web = await tool("web_search", "ibuprofen paracetamol");
    expect(web.res.status).toBe(503);
    expect((await json(web.res)).error.code).toBe("tool_failed");
    expect(provider).not.toHaveBeenCalled();
    await env.CONFIG.delete("agent:medical-qa");
  });
});

describe("demo mode (DEMO_MODE=1, as npm start runs it)", () => {
  it("serves the demo site from loopback origins, its admin key, CORS for loopback and the demo model", async () => {
    const s = await openSession("derm-consult", {}, { headers: FORGED });
    expect(s.sessionId).toBeTruthy();
    expect((await demoAdmin()).res.status).toBe(200);
    const cors = await preflight();
    expect(cors.res.headers.get("access-control-allow-origin")).toBe(FORGED.origin);
    expect(await json((await call("/v1/health")).res)).toEqual({ ok: true, demo: true });
  });

  it("serves the demo's scripts and styles from the static assets", async () => {
    for (const file of DEMO_FILES) {
      const { res } = await call(file);
      expect(res.status, file).toBe(200);
      expect(res.headers.get("content-type"), file).toMatch(file.endsWith(".js") ? /javascript/ : /^text\/css/);
      await res.body?.cancel();
    }
  });

  it("never lets a preset cached in demo mode answer outside it (one isolate, both modes)", async () => {
    await openSession("derm-consult");
    const { res } = await openDemoSite(DEPLOYED);
    expect(res.status).toBe(403);
  });
});
