import { afterEach, describe, expect, it, vi } from "vitest";
import { auth, call, openSession, ORIGIN } from "../helpers/worker/client.ts";
import { putSite, sha256Hex } from "../helpers/worker/sites.ts";
import { sseResponse, delta } from "../helpers/worker/provider-sse.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";

afterEach(() => {
  vi.restoreAllMocks();
  clearConfigCache();
});

const json = async (r: Response) => (await r.json()) as any;
const ADMIN = "owner-key-" + "d".repeat(20);
const AGENT = "derm-consult";
const DRAFT = `/v1/admin/agents/${AGENT}/draft`;
const ip = () => `203.0.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
/** A site of the owner's; its provider is a profile, answered by systemPromptOf's stub. */
const site = async () =>
  putSite({ adminKeySha256: await sha256Hex(ADMIN), providers: [{ id: "test", baseUrl: "https://provider.test/v1" }] });

async function admin(siteKey: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const headers = { "x-parley-admin-key": ADMIN, "cf-connecting-ip": ip() };
  const { res, done } = await call(`${path}?site=${siteKey}`, { ...init, headers });
  const body = await json(res);
  await done();
  return { status: res.status, body };
}

/** The console's cookie (name=value), as the browser sends it with the preview frame's requests. */
async function consoleCookie(siteKey: string) {
  const { res } = await call(`${ORIGIN}/v1/console/session`, {
    method: "POST",
    json: { siteKey, adminKey: ADMIN },
    headers: { "cf-connecting-ip": ip() },
  });
  expect(res.status).toBe(200);
  return res.headers.get("set-cookie")!.split(";")[0];
}

function openDraft(siteKey: string, headers: Record<string, string> = {}) {
  return call(`${ORIGIN}/v1/sessions`, { method: "POST", json: { siteKey, agentId: AGENT, draft: true }, headers });
}

async function saveDraft(siteKey: string, change: Record<string, unknown>) {
  const live = (await admin(siteKey, `/v1/admin/agents/${AGENT}`)).body.agent;
  const put = await admin(siteKey, DRAFT, { method: "PUT", json: { ...live, ...change } });
  expect(put.status).toBe(200);
  return live;
}

async function systemPromptOf(token: string) {
  const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValue(sseResponse([delta("ok")]));
  const c = await call("/v1/chat/completions", {
    method: "POST",
    json: { stream: true, messages: [{ id: "m", role: "user", content: "hi" }] },
    headers: auth(token),
  });
  await c.res.text();
  await c.done();
  const body = JSON.parse((fetchSpy.mock.calls[0][1] as RequestInit).body as string);
  fetchSpy.mockRestore();
  return body.messages[0].content as string;
}

const greeting = { en: "Draft hello from the clinic", "zh-CN": "草稿问候" };

describe("agent drafts (the console's try it)", () => {
  it(
    "saves a draft apart from the live agent and refuses " + "a draft session without the site's console cookie",
    async () => {
      const siteKey = await site();
      expect((await admin(siteKey, DRAFT)).status).toBe(404);
      const live = await saveDraft(siteKey, { greeting });
      expect((await admin(siteKey, DRAFT)).body.agent.greeting).toEqual(greeting);
      // Visitors still get the published agent.
      expect((await openSession(AGENT, {}, { siteKey })).agent.greeting).toEqual(live.greeting);

      const anonymous = await openDraft(siteKey);
      expect(anonymous.res.status).toBe(401);
      expect((await json(anonymous.res)).error.code).toBe("unauthorized");
      const forged = await openDraft(siteKey, { cookie: "__Host-parley-console=a.b.c" });
      expect(forged.res.status).toBe(401);
      const otherSite = await site();
      const theirs = await openDraft(siteKey, { cookie: await consoleCookie(otherSite) });
      expect(theirs.res.status).toBe(403);
      const cookie = await consoleCookie(siteKey);
      const crossOrigin = await openDraft(siteKey, { cookie, origin: "https://evil.example" });
      expect(crossOrigin.res.status).toBeGreaterThanOrEqual(400);
      expect(crossOrigin.res.status).toBeLessThan(500);
    },
  );

  it("a draft session runs the draft's greeting and system prompt; a visitor's session the published one", async () => {
    const siteKey = await site();
    const live = await saveDraft(siteKey, { greeting, systemPrompt: "DRAFT-PROMPT: answer in haiku." });
    const cookie = await consoleCookie(siteKey);
    const opened = await openDraft(siteKey, { cookie });
    expect(opened.res.status).toBe(201);
    const s = await json(opened.res);
    expect(s.agent.greeting).toEqual(greeting);
    // A restored draft session (GET) keeps the draft too.
    const restored = await call(`/v1/sessions/${s.sessionId}`, { headers: auth(s.token) });
    expect((await json(restored.res)).agent.greeting).toEqual(greeting);
    expect(await systemPromptOf(s.token)).toContain("DRAFT-PROMPT");

    const visitor = await openSession(AGENT, {}, { siteKey });
    expect(visitor.agent.greeting).toEqual(live.greeting);
    expect(await systemPromptOf(visitor.token)).not.toContain("DRAFT-PROMPT");
  });

  it("publish copies the draft to the live agent and clears it; an invalid draft is refused at its field", async () => {
    const siteKey = await site();
    const live = await saveDraft(siteKey, { greeting });
    const bad = await admin(siteKey, DRAFT, { method: "PUT", json: { ...live, tools: ["no_such_tool"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe("tools.0");
    const renamed = await admin(siteKey, DRAFT, { method: "PUT", json: { ...live, id: "other" } });
    expect(renamed.status).toBe(400);

    const published = await admin(siteKey, `${DRAFT}/publish`, { method: "POST" });
    expect(published.status).toBe(200);
    expect(published.body.agent.greeting).toEqual(greeting);
    expect((await openSession(AGENT, {}, { siteKey })).agent.greeting).toEqual(greeting);
    expect((await admin(siteKey, DRAFT)).status).toBe(404);
    expect((await admin(siteKey, `${DRAFT}/publish`, { method: "POST" })).status).toBe(404);
    // With no draft, the console's try-it says so instead of running the published agent.
    const none = await openDraft(siteKey, { cookie: await consoleCookie(siteKey) });
    expect(none.res.status).toBe(404);
  });
});
