import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { auth, call, openSession } from "../helpers/worker/client.ts";
import { putSite, sha256Hex } from "../helpers/worker/sites.ts";
import { clearConfigCache, CONFIG_CACHE_MS } from "../../worker/config/config-store.ts";
import { KNOWLEDGE_CACHE_MS } from "../../worker/tools/knowledge.ts";
import { DEMO_ADMIN_KEY } from "../../worker/demo/index.ts";
import type { Env } from "../../worker/env.ts";

afterEach(() => {
  vi.restoreAllMocks();
  clearConfigCache();
});

const json = async (r: Response) => (await r.json()) as any;
const ADMIN = "owner-key-" + "s".repeat(20);
const DEPLOYED: Partial<Env> = { DEMO_MODE: "" };

async function ownSite(overrides: Parameters<typeof putSite>[0] = {}) {
  return putSite({ adminKeySha256: await sha256Hex(ADMIN), tenantId: `t-${crypto.randomUUID()}`, ...overrides });
}

/** Admin requests count per client address (60 a minute, admin.test.ts); each here comes from its own. */
const freshIp = () => `198.51.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;

function admin(siteKey: string, path: string, init: { method?: string; json?: unknown } = {}, vars: Partial<Env> = {}) {
  const sep = path.includes("?") ? "&" : "?";
  const headers = { "x-parley-admin-key": ADMIN, "cf-connecting-ip": freshIp() };
  return call(`${path}${sep}site=${siteKey}`, { ...init, headers }, vars).then(async ({ res, done }) => {
    const body = await json(res);
    await done();
    return { status: res.status, body };
  });
}

const issuePaths = (body: any) => body.error.issues.map((i: any) => i.path);

async function settingsOf(siteKey: string, vars: Partial<Env> = {}) {
  return (await admin(siteKey, "/v1/admin/site", {}, vars)).body.site;
}
/** The settings form as the console sends it back: every setting, one changed. */
async function putSettings(siteKey: string, change: Record<string, unknown>, vars: Partial<Env> = {}) {
  const { allowedOrigins, models, maxTokens, rateLimits, budgets, desk, retentionDays } = await settingsOf(
    siteKey,
    vars,
  );
  const form = { allowedOrigins, models, maxTokens, rateLimits, budgets, desk, retentionDays, ...change };
  return admin(siteKey, "/v1/admin/site", { method: "PUT", json: form }, vars);
}

describe("site settings (PUT /v1/admin/site)", () => {
  it("reads the settings without the admin key's digest, and writes them where the worker reads them", async () => {
    const siteKey = await ownSite({ allowedOrigins: ["https://clinic.example"] });
    const read = await admin(siteKey, "/v1/admin/site", {}, DEPLOYED);
    expect(read.status).toBe(200);
    expect(read.body.site).toMatchObject({ siteKey, allowedOrigins: ["https://clinic.example"], retentionDays: 90 });
    expect(JSON.stringify(read.body)).not.toContain("adminKeySha256");

    const put = await putSettings(
      siteKey,
      {
        allowedOrigins: ["https://www.clinic.example"],
        retentionDays: 30,
        budgets: { sitePerDay: 5000, perSession: 900 },
      },
      DEPLOYED,
    );
    expect(put.status).toBe(200);
    expect(put.body.site).toMatchObject({ retentionDays: 30, budgets: { sitePerDay: 5000, perSession: 900 } });
    expect(await env.CONFIG.get("origin:https://www.clinic.example")).toBe(siteKey);

    // The new origin opens sessions at once on this isolate; the removed one is refused.
    const open = (origin: string) =>
      call("/v1/sessions", { method: "POST", json: { siteKey, agentId: "derm-consult" }, headers: { origin } });
    expect((await open("https://www.clinic.example")).res.status).toBe(201);
    const old = await open("https://clinic.example");
    expect(old.res.status).toBe(403);
    expect((await json(old.res)).error.code).toBe("forbidden_origin");
    // The admin key still opens the site: what is not a setting was kept.
    expect((await settingsOf(siteKey)).agents).toContain("derm-consult");
  });

  it.each([
    ["http://clinic.example", "https://"],
    ["https://clinic.example/", "bare origin"],
    ["https://clinic.example/contact", "bare origin"],
    ["clinic.example", "not an origin"],
    ["https://*.clinic.example", "wildcard"],
    ["https://clinic.example:*", "port wildcard"],
    ["http://127.0.0.1:8080", "loopback"],
    ["http://localhost:*", "loopback"],
  ])("refuses the origin %s at its field on a deployed worker", async (bad, why) => {
    const siteKey = await ownSite({ allowedOrigins: ["https://clinic.example"] });
    const put = await putSettings(siteKey, { allowedOrigins: ["https://clinic.example", bad] }, DEPLOYED);
    expect(put.status).toBe(400);
    expect(put.body.error.code).toBe("validation_failed");
    expect(put.body.error.issues).toEqual([{ path: "allowedOrigins.1", message: expect.stringContaining(why) }]);
    expect((await settingsOf(siteKey, DEPLOYED)).allowedOrigins).toEqual(["https://clinic.example"]);
  });

  it("accepts loopback origins in demo mode only", async () => {
    const siteKey = await ownSite();
    const put = await putSettings(siteKey, { allowedOrigins: ["http://127.0.0.1:*", "https://clinic.example"] });
    expect(put.status).toBe(200);
  });

  it("names the field of every schema failure, as the config store's schema sees it", async () => {
    const siteKey = await ownSite();
    const put = await putSettings(siteKey, {
      budgets: { sitePerDay: -1, perSession: 10 },
      retentionDays: 0,
      rateLimits: { sessionPerMinute: "many", ipPerMinute: 10 },
    });
    expect(put.status).toBe(400);
    expect(issuePaths(put.body).sort()).toEqual(["budgets.sitePerDay", "rateLimits.sessionPerMinute", "retentionDays"]);
  });
});

describe("agents (/v1/admin/agents)", () => {
  it("offers the templates without the demo's site, keys or model", async () => {
    const siteKey = await ownSite();
    const { status, body } = await admin(siteKey, "/v1/admin/templates", {}, DEPLOYED);
    expect(status).toBe(200);
    expect(body.templates.map((t: any) => t.id).sort()).toEqual([
      "derm-consult",
      "medical-qa",
      "protocol-designer",
      "sales-coach",
    ]);
    const text = JSON.stringify(body);
    for (const demoOnly of ["demo-site-key-0001", DEMO_ADMIN_KEY, "parley-demo", "127.0.0.1"])
      expect(text).not.toContain(demoOnly);
  });

  it("creates an agent from a template; a visitor opens it; its id is taken after", async () => {
    const siteKey = await ownSite({ agents: ["derm-consult"] });
    const template = (await admin(siteKey, "/v1/admin/templates")).body.templates.find(
      (t: any) => t.id === "medical-qa",
    );
    const mine = { ...template, id: "front-desk", name: { en: "Front desk", "zh-CN": "前台" } };
    const created = await admin(siteKey, "/v1/admin/agents", { method: "POST", json: mine });
    expect(created.status).toBe(201);
    const list = await admin(siteKey, "/v1/admin/agents");
    expect(list.body.agents.map((a: any) => [a.id, a.source])).toEqual([
      ["derm-consult", "preset"],
      ["front-desk", "site"],
    ]);
    const s = await openSession("front-desk", {}, { siteKey });
    expect(s.agent.name.en).toBe("Front desk");
    expect(JSON.stringify(s.agent)).not.toContain(template.systemPrompt.slice(0, 40));

    const again = await admin(siteKey, "/v1/admin/agents", { method: "POST", json: mine });
    expect(again.status).toBe(409);
    expect(issuePaths(again.body)).toEqual(["id"]);
  });

  it(
    "writes a greeting that the public agent route reads " + "back at once; another site's agent is untouched",
    async () => {
      const siteKey = await ownSite();
      const other = await ownSite();
      const { body } = await admin(siteKey, "/v1/admin/agents/derm-consult");
      expect(body.source).toBe("preset");
      const greeting = { en: "Welcome to Dr. Lee's skin clinic!", "zh-CN": "欢迎来到李医生皮肤诊所！" };
      const put = await admin(siteKey, "/v1/admin/agents/derm-consult", {
        method: "PUT",
        json: { ...body.agent, greeting, starters: [{ en: "Book a visit", "zh-CN": "预约" }] },
      });
      expect(put.status).toBe(200);
      expect(put.body.takesEffectWithinMs).toBe(CONFIG_CACHE_MS);

      const s = await openSession("derm-consult", {}, { siteKey });
      expect(s.agent.greeting).toEqual(greeting);
      expect(s.agent.starters).toEqual([{ en: "Book a visit", "zh-CN": "预约" }]);
      const theirs = await openSession("derm-consult", {}, { siteKey: other });
      expect(theirs.agent.greeting.en).not.toBe(greeting.en);
      expect((await admin(siteKey, "/v1/admin/agents/derm-consult")).body.source).toBe("site");
    },
  );

  it("refuses an invalid agent at each field: schema, unknown tools, a changed id", async () => {
    const siteKey = await ownSite();
    const { agent } = (await admin(siteKey, "/v1/admin/agents/derm-consult")).body;
    const bad = await admin(siteKey, "/v1/admin/agents/derm-consult", {
      method: "PUT",
      json: { ...agent, greeting: { en: "Hi" }, strategy: "telepathy", maxSteps: 99 },
    });
    expect(bad.status).toBe(400);
    expect(issuePaths(bad.body).sort()).toEqual(["greeting.zh-CN", "maxSteps", "strategy"]);

    const tools = await admin(siteKey, "/v1/admin/agents/derm-consult", {
      method: "PUT",
      json: { ...agent, tools: ["knowledge_search", "knowledge_serch"] },
    });
    expect(tools.status).toBe(400);
    expect(tools.body.error.issues).toEqual([{ path: "tools.1", message: 'No tool named "knowledge_serch"' }]);

    const renamed = await admin(siteKey, "/v1/admin/agents/derm-consult", {
      method: "PUT",
      json: { ...agent, id: "skin" },
    });
    expect(issuePaths(renamed.body)).toEqual(["id"]);
    expect((await openSession("derm-consult", {}, { siteKey })).agent.greeting).toEqual(agent.greeting);
  });

  it("deletes an agent: no session opens it, and another site's agent is not reachable", async () => {
    const siteKey = await ownSite({ agents: ["derm-consult", "medical-qa"] });
    expect((await admin(siteKey, "/v1/admin/agents/sales-coach")).status).toBe(404);
    const del = await admin(siteKey, "/v1/admin/agents/medical-qa", { method: "DELETE" });
    expect(del.status).toBe(200);
    const open = await call("/v1/sessions", { method: "POST", json: { siteKey, agentId: "medical-qa" } });
    expect(open.res.status).toBe(404);
    expect((await admin(siteKey, "/v1/admin/agents")).body.agents.map((a: any) => a.id)).toEqual(["derm-consult"]);
  });

  it(`takes effect on other isolates within the config cache's ${CONFIG_CACHE_MS / 1000} s`, async () => {
    const siteKey = await ownSite();
    const now = Date.now();
    const clock = vi.spyOn(Date, "now").mockReturnValue(now);
    const first = await openSession("derm-consult", {}, { siteKey });
    // Another isolate's write: KV changes, this isolate's cache is not told.
    const { agent } = (await admin(siteKey, "/v1/admin/agents/derm-consult")).body;
    await env.CONFIG.put(
      `site-agent:${siteKey}:derm-consult`,
      JSON.stringify({ ...agent, greeting: { en: "Changed elsewhere", "zh-CN": "别处已改" } }),
    );
    clock.mockReturnValue(now + CONFIG_CACHE_MS - 1);
    expect((await openSession("derm-consult", {}, { siteKey })).agent.greeting).toEqual(first.agent.greeting);
    clock.mockReturnValue(now + CONFIG_CACHE_MS);
    expect((await openSession("derm-consult", {}, { siteKey })).agent.greeting.en).toBe("Changed elsewhere");
  });
});

describe("knowledge (/v1/admin/knowledge)", () => {
  const search = (token: string, query: string) =>
    call("/v1/tools/knowledge_search", {
      method: "POST",
      json: { arguments: { query }, callId: crypto.randomUUID() },
      headers: auth(token),
    }).then(async ({ res, done }) => {
      const body = await json(res);
      await done();
      return body.result.hits.map((h: any) => h.title);
    });

  it("adds a document knowledge_search then finds (en and zh), edits it, deletes it: then not found", async () => {
    const siteKey = await ownSite();
    const s = await openSession("derm-consult", {}, { siteKey });
    const doc = {
      title: "Laser tattoo removal: aftercare",
      text: "## After a laser session\n\nKeep the area **dry** for 24 hours; apply a thin layer of petrolatum.",
      format: "markdown",
      locale: "en",
    };
    const added = await admin(siteKey, "/v1/admin/knowledge", { method: "POST", json: doc });
    expect(added.status).toBe(201);
    const id = added.body.document.id;
    const zh = await admin(siteKey, "/v1/admin/knowledge", {
      method: "POST",
      json: {
        title: "激光祛斑术后护理",
        text: "术后一周内避免日晒，每天涂抹防晒霜。",
        format: "text",
        locale: "zh-CN",
      },
    });
    expect(zh.status).toBe(201);

    expect(await search(s.token, "tattoo laser aftercare")).toEqual([doc.title]);
    expect(await search(s.token, "激光术后怎么护理")).toContain("激光祛斑术后护理");
    const tried = await admin(siteKey, "/v1/admin/knowledge-search", {
      method: "POST",
      json: { query: "tattoo removal" },
    });
    expect(tried.body.hits[0]).toMatchObject({ id, title: doc.title, score: expect.any(Number) });
    expect(tried.body.hits[0].score).toBeGreaterThan(0);

    const listed = await admin(siteKey, "/v1/admin/knowledge");
    expect(listed.body.documents.map((d: any) => d.title)).toEqual([doc.title, "激光祛斑术后护理"]);

    const edited = await admin(siteKey, `/v1/admin/knowledge/${id}`, {
      method: "PUT",
      json: { ...doc, title: "Laser hair removal: aftercare" },
    });
    expect(edited.status).toBe(200);
    expect(await search(s.token, "laser aftercare")).toContain("Laser hair removal: aftercare");

    expect((await admin(siteKey, `/v1/admin/knowledge/${id}`, { method: "DELETE" })).status).toBe(200);
    expect(await search(s.token, "laser hair removal aftercare")).not.toContain("Laser hair removal: aftercare");
    expect((await admin(siteKey, `/v1/admin/knowledge/${id}`)).status).toBe(404);
  });

  it("refuses an empty or oversized document at its field", async () => {
    const siteKey = await ownSite();
    const bad = await admin(siteKey, "/v1/admin/knowledge", {
      method: "POST",
      json: { title: "  ", text: "x", format: "pdf" },
    });
    expect(bad.status).toBe(400);
    expect(issuePaths(bad.body).sort()).toEqual(["format", "title"]);
  });

  it("keeps the demo's documents when the demo owner adds one", async () => {
    const siteKey = await ownSite({ tenantId: `demo-copy-${crypto.randomUUID()}` });
    // A tenant without documents starts empty; the demo tenant starts from the demo's documents.
    expect((await admin(siteKey, "/v1/admin/knowledge")).body.documents).toEqual([]);
    await env.CONFIG.delete("docs:demo");
    const demo = await putSite({ adminKeySha256: await sha256Hex(ADMIN), tenantId: "demo" });
    const before = (await admin(demo, "/v1/admin/knowledge")).body.documents.length;
    expect(before).toBeGreaterThan(3);
    await admin(demo, "/v1/admin/knowledge", { method: "POST", json: { title: "Opening hours", text: "9 to 5." } });
    expect((await admin(demo, "/v1/admin/knowledge")).body.documents).toHaveLength(before + 1);
    await env.CONFIG.delete("docs:demo");
  });

  it(
    `a document deleted on another isolate is not served past ` + `the index cache's ${KNOWLEDGE_CACHE_MS / 1000} s`,
    async () => {
      const siteKey = await ownSite();
      const tenantId = (await settingsOf(siteKey)).tenantId;
      const s = await openSession("derm-consult", {}, { siteKey });
      const added = await admin(siteKey, "/v1/admin/knowledge", {
        method: "POST",
        json: { title: "Parking for patients", text: "Free parking behind the clinic." },
      });
      expect(added.status).toBe(201);
      const now = Date.now();
      const clock = vi.spyOn(Date, "now").mockReturnValue(now);
      expect(await search(s.token, "parking")).toEqual(["Parking for patients"]);
      await env.CONFIG.put(`docs:${tenantId}`, "[]");
      clock.mockReturnValue(now + KNOWLEDGE_CACHE_MS - 1);
      expect(await search(s.token, "parking")).toEqual(["Parking for patients"]);
      clock.mockReturnValue(now + KNOWLEDGE_CACHE_MS);
      expect(await search(s.token, "parking")).toEqual([]);
    },
  );
});
