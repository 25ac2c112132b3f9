import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { auth, call, openSession } from "../helpers/worker/client.ts";
import { putSite, sha256Hex } from "../helpers/worker/sites.ts";
import { pushToIndex } from "../helpers/worker/index-push.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";

afterEach(() => clearConfigCache());

const json = async (r: Response) => (await r.json()) as any;
const ADMIN = "owner-key-" + "i".repeat(20);
const admin = (path: string, init: RequestInit = {}) =>
  call(path, { ...init, headers: { "x-parley-admin-key": ADMIN, ...(init.headers as object) } });
const siteWithAdmin = async (extra: object = {}) => putSite({ adminKeySha256: await sha256Hex(ADMIN), ...extra });

/**
 * A medical-qa conversation: the visitor's message, the loop's first step (a knowledge_search call,
 * no text), the edge tool's call, then the router's quick path answering from sources (the answer).
 */
async function conversation(siteKey: string, text: string, agent = "medical-qa") {
  const s = await openSession(agent, {}, { siteKey });
  const c = await call("/v1/chat/completions", {
    method: "POST",
    json: { stream: true, messages: [{ id: "q", role: "user", content: text }], parley: { replyId: "a1" } },
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
  const q = await call("/v1/chat/completions", {
    method: "POST",
    json: {
      stream: true,
      messages: [{ id: "q", role: "user", content: text }],
      parley: { replyId: "a2", purpose: "quick", sources: "Ibuprofen and paracetamol may be taken together." },
    },
    headers: auth(s.token),
  });
  await q.res.text();
  await q.done();
  return s;
}

async function rate(s: { sessionId: string; token: string }, rating: "up" | "down", comment?: string) {
  const { res } = await call(`/v1/sessions/${s.sessionId}/feedback`, {
    method: "POST",
    json: { messageId: "a2", rating, ...(comment ? { comment } : {}) },
    headers: auth(s.token),
  });
  expect(res.status).toBeLessThan(300);
}

const list = async (siteKey: string, query = "") =>
  (await json((await admin(`/v1/admin/sessions?site=${siteKey}${query}`)).res)).sessions as any[];

describe("the site's conversation index (SiteIndex, SQLite)", () => {
  it("is pushed by the session's own object after the turn, not by the request: " + "a summary row each", async () => {
    const siteKey = await siteWithAdmin();
    const s = await conversation(siteKey, "Can I take ibuprofen with paracetamol?");
    await pushToIndex(s.sessionId);
    const [row] = await list(siteKey);
    expect(row).toMatchObject({
      sessionId: s.sessionId,
      agentId: "medical-qa",
      messages: 2,
      feedbackUp: 0,
      feedbackDown: 0,
      escalated: false,
      interrupted: false,
      reactAnswers: 0,
      quickAnswers: 1,
      handledBy: "agent",
      firstText: "Can I take ibuprofen with paracetamol?",
    });
    expect(row.tokens).toBeGreaterThan(0);
    expect(row.lastActivityAt).toBeGreaterThanOrEqual(row.openedAt);
    // A rating is stored at once, but the index hears of it from the session's alarm (2 s later), not
    // from the request: no call to the site-wide object on a visitor's request.
    await rate(s, "down", "too vague");
    expect((await list(siteKey))[0]).toMatchObject({ feedbackDown: 0 });
    await pushToIndex(s.sessionId);
    expect((await list(siteKey))[0]).toMatchObject({ feedbackDown: 1 });
  });

  it("filters by agent, feedback, route and dates, searches the first message, pages newest first", async () => {
    const siteKey = await siteWithAdmin();
    const a = await conversation(siteKey, "Can I take ibuprofen with paracetamol?");
    const b = await conversation(siteKey, "What helps a sore throat?");
    const c = await openSession("derm-consult", {}, { siteKey });
    await rate(b, "up");
    await pushToIndex(a.sessionId, b.sessionId, c.sessionId);
    const ids = (rows: any[]) => rows.map((r) => r.sessionId);
    expect(ids(await list(siteKey))).toEqual([c.sessionId, b.sessionId, a.sessionId]);
    expect(ids(await list(siteKey, "&agent=derm-consult"))).toEqual([c.sessionId]);
    expect(ids(await list(siteKey, "&feedback=up"))).toEqual([b.sessionId]);
    expect(ids(await list(siteKey, "&feedback=none"))).toEqual([c.sessionId, a.sessionId]);
    expect(ids(await list(siteKey, "&route=quick"))).toEqual([b.sessionId, a.sessionId]);
    expect(ids(await list(siteKey, "&route=react"))).toEqual([]);
    expect(ids(await list(siteKey, "&q=SORE%20throat"))).toEqual([b.sessionId]);
    expect(ids(await list(siteKey, "&q=100%25"))).toEqual([]);
    expect(ids(await list(siteKey, "&advice=1&escalated=1"))).toEqual([]);
    expect(ids(await list(siteKey, `&from=${Date.now() + 60_000}`))).toEqual([]);
    const page1 = await json((await admin(`/v1/admin/sessions?site=${siteKey}&limit=2`)).res);
    expect(ids(page1.sessions)).toEqual([c.sessionId, b.sessionId]);
    expect(ids(await list(siteKey, `&limit=2&before=${page1.next}`))).toEqual([a.sessionId]);
    const bad = await admin(`/v1/admin/sessions?site=${siteKey}&route=fast`);
    expect(bad.res.status).toBe(400);
    expect((await json(bad.res)).error.code).toBe("validation_failed");
  });

  it("exports the filtered list as CSV (formulas defused) and JSON, and one conversation as JSON and CSV", async () => {
    const siteKey = await siteWithAdmin();
    const s = await conversation(siteKey, '=HYPERLINK("http://evil.example","click") "quoted"');
    await rate(s, "down", 'it said, "ask a doctor"');
    await pushToIndex(s.sessionId);
    const csv = await admin(`/v1/admin/exports/sessions?site=${siteKey}&feedback=down`);
    expect(csv.res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.res.headers.get("content-disposition")).toMatch(/^attachment; filename="conversations-.*\.csv"$/);
    const lines = (await csv.res.text()).trim().split("\r\n");
    expect(lines[0]).toMatch(/^"session","agent","opened",/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"${s.sessionId}","medical-qa"`);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""click"") ""quoted"""`);
    const asJson = await json((await admin(`/v1/admin/exports/sessions?site=${siteKey}&format=json`)).res);
    expect(asJson.sessions.map((r: any) => r.sessionId)).toEqual([s.sessionId]);

    const one = await admin(`/v1/admin/sessions/${s.sessionId}/export?site=${siteKey}`);
    const state = await json(one.res);
    expect(state.messages.map((m: any) => m.id)).toEqual(["q", "a1", "a2"]);
    expect(state.feedback.a2).toMatchObject({ rating: "down", comment: 'it said, "ask a doctor"' });
    const oneCsv = await (
      await admin(`/v1/admin/sessions/${s.sessionId}/export?site=${siteKey}&format=csv`)
    ).res.text();
    expect(oneCsv.split("\r\n")[0]).toBe('"at","role","status","content","feedback","comment"');
    expect(oneCsv).toContain('"down","it said, ""ask a doctor"""');
  });

  it(
    "erases a conversation: events, index row; the visitor's token finds nothing; " + "another site cannot",
    async () => {
      const siteKey = await siteWithAdmin();
      const other = await siteWithAdmin();
      const s = await conversation(siteKey, "Can I take ibuprofen with paracetamol?");
      await pushToIndex(s.sessionId);
      expect((await admin(`/v1/admin/sessions/${s.sessionId}?site=${other}`, { method: "DELETE" })).res.status).toBe(
        404,
      );
      const del = await admin(`/v1/admin/sessions/${s.sessionId}?site=${siteKey}`, { method: "DELETE" });
      expect(del.res.status).toBe(204);
      expect(await list(siteKey)).toEqual([]);
      expect((await admin(`/v1/admin/sessions/${s.sessionId}?site=${siteKey}`)).res.status).toBe(404);
      expect((await call(`/v1/sessions/${s.sessionId}`, { headers: auth(s.token) })).res.status).toBe(404);
      // Nothing left to push: the index stays empty.
      await pushToIndex(s.sessionId);
      expect(await list(siteKey)).toEqual([]);
      expect((await admin(`/v1/admin/sessions/${s.sessionId}?site=${siteKey}`, { method: "DELETE" })).res.status).toBe(
        404,
      );
    },
  );

  it("purges conversations idle longer than the site's retentionDays (its alarm), and keeps the others", async () => {
    const siteKey = await siteWithAdmin({ retentionDays: 30 });
    const old = await conversation(siteKey, "An old question");
    const recent = await openSession("derm-consult", {}, { siteKey });
    await pushToIndex(old.sessionId, recent.sessionId);
    const index = env.SITE_INDEX.get(env.SITE_INDEX.idFromName(siteKey));
    await runInDurableObject(index, (_obj, state) => {
      state.storage.sql.exec("UPDATE sessions SET last = ? WHERE sid = ?", Date.now() - 31 * 86_400_000, old.sessionId);
    });
    expect(await runDurableObjectAlarm(index)).toBe(true);
    expect((await list(siteKey)).map((r) => r.sessionId)).toEqual([recent.sessionId]);
    expect((await admin(`/v1/admin/sessions/${old.sessionId}?site=${siteKey}`)).res.status).toBe(404);
    expect((await admin(`/v1/admin/sessions/${recent.sessionId}?site=${siteKey}`)).res.status).toBe(200);
    // The next run is scheduled: when the recent one would pass the limit, and within a day.
    const next = await runInDurableObject(index, (_obj, state) => state.storage.getAlarm());
    expect(next! - Date.now()).toBeLessThanOrEqual(86_400_000);
  });

  it(
    "answers insights per day and agent: conversations, messages, tokens, answers by route, " +
      "first bytes, tools, feedback",
    async () => {
      const siteKey = await siteWithAdmin();
      const s = await conversation(siteKey, "Can I take ibuprofen with paracetamol?");
      await rate(s, "up");
      const d = await openSession("derm-consult", {}, { siteKey });
      await pushToIndex(s.sessionId, d.sessionId);
      const body = await json((await admin(`/v1/admin/insights?site=${siteKey}`)).res);
      expect(body.budgetPerDay).toBeGreaterThan(0);
      const today = new Date().toISOString().slice(0, 10);
      const qa = body.rows.find((r: any) => r.agent === "medical-qa");
      expect(qa).toMatchObject({ day: today, conversations: 1, messages: 2, answers: 1, quickAnswers: 1 });
      expect(qa).toMatchObject({ toolCalls: 1, toolFailures: 0, feedbackUp: 1, feedbackDown: 0 });
      expect(qa.tokens).toBeGreaterThan(0);
      expect(qa.ttftP50).toBeGreaterThanOrEqual(0);
      expect(qa.ttftP95).toBeGreaterThanOrEqual(qa.ttftP50);
      expect(body.rows.find((r: any) => r.agent === "derm-consult")).toMatchObject({ conversations: 1, messages: 0 });
      expect(body.days).toHaveLength(1);
      expect(body.days[0]).toMatchObject({ day: today, agent: "*", conversations: 2, messages: 2, feedbackUp: 1 });
      expect(body.days[0].ttftP50).toBe(qa.ttftP50);
      const only = await json((await admin(`/v1/admin/insights?site=${siteKey}&agent=derm-consult`)).res);
      expect(only.rows.map((r: any) => r.agent)).toEqual(["derm-consult"]);
      expect(only.days[0]).toMatchObject({ agent: "*", conversations: 1 });
    },
  );
});
