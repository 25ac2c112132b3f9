import { afterEach, describe, expect, it, vi } from "vitest";
import { auth, call, openSession, SITE_KEY } from "../helpers/worker/client.ts";
import { putSite, sha256Hex } from "../helpers/worker/sites.ts";
import { pushToIndex } from "../helpers/worker/index-push.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { ADMIN_PER_MINUTE } from "../../worker/limits/admission.ts";
import { DEMO_ADMIN_KEY } from "../../worker/demo/index.ts";

afterEach(() => {
  vi.restoreAllMocks();
  clearConfigCache();
});

const json = async (r: Response) => (await r.json()) as any;
const ADMIN = "owner-key-" + "x".repeat(20);
const admin = (path: string, key = ADMIN) => call(path, { headers: { "x-parley-admin-key": key } });

async function siteWithAdmin() {
  return putSite({ adminKeySha256: await sha256Hex(ADMIN) });
}

async function chatted(siteKey: string) {
  const s = await openSession("medical-qa", {}, { siteKey });
  const c = await call("/v1/chat/completions", {
    method: "POST",
    json: {
      stream: true,
      messages: [{ id: "q", role: "user", content: "Can I take ibuprofen with paracetamol?" }],
      parley: { replyId: "a1" },
    },
    headers: auth(s.token),
  });
  await c.res.text();
  await c.done();
  const t = await call("/v1/tools/knowledge_search", {
    method: "POST",
    json: { arguments: { query: "ibuprofen" }, callId: "k1" },
    headers: auth(s.token),
  });
  await t.res.text();
  await t.done();
  return s;
}

describe("admin routes (site owner, x-parley-admin-key)", () => {
  it(
    "lists the site's sessions newest first and reads a session's trace: " +
      "completions with model, tokens, ms; tool calls",
    async () => {
      const siteKey = await siteWithAdmin();
      const first = await chatted(siteKey);
      const second = await openSession("derm-consult", {}, { siteKey });
      await pushToIndex(first.sessionId, second.sessionId);
      const list = await admin(`/v1/admin/sessions?site=${siteKey}`);
      expect(list.res.status).toBe(200);
      const body = await json(list.res);
      expect(body.sessions.map((s: any) => s.sessionId)).toEqual([second.sessionId, first.sessionId]);
      expect(body.sessions[1]).toMatchObject({ agentId: "medical-qa" });
      expect(body.tokensToday.spent).toBeGreaterThan(0);

      const trace = await admin(`/v1/admin/sessions/${first.sessionId}/trace?site=${siteKey}`);
      expect(trace.res.status).toBe(200);
      const t = await json(trace.res);
      expect(t.usage.totalTokens).toBeGreaterThan(0);
      const completion = t.trace.find((s: any) => s.kind === "completion");
      expect(completion).toMatchObject({
        name: "parley-demo",
        ok: true,
        detail: { replyId: "a1", purpose: "chat", status: "complete", retries: 0 },
      });
      expect(completion.ms).toBeGreaterThanOrEqual(0);
      expect(completion.detail.promptTokens).toBeGreaterThan(0);
      expect(t.trace.find((s: any) => s.kind === "tool")).toMatchObject({
        name: "knowledge_search",
        ok: true,
        detail: { side: "edge", callId: "k1" },
      });

      const full = await admin(`/v1/admin/sessions/${first.sessionId}?site=${siteKey}`);
      expect((await json(full.res)).state.messages.map((m: any) => m.id)).toEqual(["q", "a1"]);
    },
  );

  it.each([
    ["no key", undefined],
    ["a wrong key", "owner-key-wrong"],
    ["another site's key", DEMO_ADMIN_KEY],
  ])("refuses %s with 401 unauthorized", async (_name, key) => {
    const siteKey = await siteWithAdmin();
    const { res } = await call(`/v1/admin/sessions?site=${siteKey}`, {
      headers: key ? { "x-parley-admin-key": key } : {},
    });
    expect(res.status).toBe(401);
    expect((await json(res)).error.code).toBe("unauthorized");
  });

  it("refuses a site without an admin key, and an unknown site, with the same 401", async () => {
    const siteKey = await putSite({ adminKeySha256: undefined });
    for (const site of [siteKey, "no-such-site-key"]) {
      const { res } = await admin(`/v1/admin/sessions?site=${site}`);
      expect(res.status).toBe(401);
    }
  });

  it("never shows another site's session: 404, even with a valid key for the admin's own site", async () => {
    const mine = await siteWithAdmin();
    const theirs = await openSession("derm-consult", {}, { siteKey: SITE_KEY });
    for (const path of [`/v1/admin/sessions/${theirs.sessionId}/trace`, `/v1/admin/sessions/${theirs.sessionId}`]) {
      const { res } = await admin(`${path}?site=${mine}`);
      expect(res.status).toBe(404);
      const text = await res.text();
      expect(JSON.parse(text).error.code).toBe("not_found");
      expect(text).not.toContain("derm-consult");
    }
    await pushToIndex(theirs.sessionId);
    const list = await json((await admin(`/v1/admin/sessions?site=${mine}`)).res);
    expect(list.sessions.map((s: any) => s.sessionId)).not.toContain(theirs.sessionId);
  });

  it(
    "counts every admin request per client IP, right key or wrong: past the " +
      "limit a 429 with Retry-After, other addresses unaffected",
    async () => {
      const siteKey = await siteWithAdmin();
      const from = (ip: string, key: string) =>
        call(`/v1/admin/sessions?site=${siteKey}`, { headers: { "x-parley-admin-key": key, "cf-connecting-ip": ip } });
      const statuses: number[] = [];
      for (let i = 0; i < ADMIN_PER_MINUTE; i++)
        statuses.push((await from("203.0.113.7", i % 2 ? ADMIN : `guess-${i}`)).res.status);
      expect(new Set(statuses)).toEqual(new Set([200, 401]));
      const over = await from("203.0.113.7", ADMIN);
      expect(over.res.status).toBe(429);
      expect(over.res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await json(over.res)).error.code).toBe("rate_limited");
      expect((await from("203.0.113.8", ADMIN)).res.status).toBe(200);
    },
  );

  it("the demo site's owner key works on the demo site (documented for local runs)", async () => {
    const s = await openSession();
    const { res } = await admin(`/v1/admin/sessions/${s.sessionId}/trace?site=${SITE_KEY}`, DEMO_ADMIN_KEY);
    expect(res.status).toBe(200);
  });
});
