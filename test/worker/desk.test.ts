import { afterEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { auth, call, openSession } from "../helpers/worker/client.ts";
import { putSite, sha256Hex } from "../helpers/worker/sites.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { clearPromptCache } from "../../worker/prompts/agent-prompt-cache.ts";
import { DEAD_AFTER_MS, type StrategyDesk } from "../../worker/strategy/strategy-desk.ts";
import type { Span } from "../../shared/admin/desk-records.ts";
import { startedRun } from "../../worker/strategy/desk-types.ts";
import { strategyDesk, sessionRoom } from "../../worker/objects.ts";

afterEach(() => {
  clearConfigCache();
  clearPromptCache();
});

const json = async (r: Response) => (await r.json()) as any;
const ADMIN = "owner-key-" + "d".repeat(20);
const H = { "x-parley-admin-key": ADMIN };
const admin = async (path: string, init: RequestInit & { json?: unknown } = {}) => {
  const { res, done } = await call(path, { ...init, headers: { ...H, ...(init.headers as Record<string, string>) } });
  const body = await json(res);
  await done();
  return { status: res.status, body };
};
const site = (desk: Record<string, unknown> = {}) =>
  sha256Hex(ADMIN).then((adminKeySha256) =>
    putSite({ adminKeySha256, desk: { debounceMs: 60_000, autoPromote: true, dailyTokens: 200_000, ...desk } }),
  );
const QUESTION = "A clinic asks whether our moisturiser suits eczema patients";

/** One completion of a sales-coach turn; `after` continues the turn (text ReAct: the action, its observation). */
async function chat(siteKey: string, token: string, after: Array<{ id: string; role: string; content: string }> = []) {
  const messages = [{ id: "q1", role: "user", content: QUESTION }, ...after];
  const c = await call("/v1/chat/completions", {
    method: "POST",
    json: { stream: true, messages, parley: { replyId: after.length ? "a2" : "a1" } },
    headers: auth(token),
  });
  const text = await c.res.text();
  await c.done();
  // The streamed reply's text, joined from its chunks.
  return text
    .split("\n\n")
    .filter((b) => b.startsWith("data: {"))
    .map((b) => JSON.parse(b.slice(6)).choices?.[0]?.delta?.content ?? "")
    .join("");
}

/** The alarm may fire by itself (a run-now, a zero debounce): waits until the desk has finished a run. */
async function settled(desk: ReturnType<typeof strategyDesk>, count = 1) {
  for (let i = 0; i < 100; i++) {
    const runs = await desk.runs();
    if (runs.length >= count && runs.every((r) => r.status !== "running")) return runs;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the desk did not finish its run");
}

/** A sales-coach conversation whose reply the visitor rates down with a comment. */
async function thumbsDown(siteKey: string, comment: string) {
  const s = await openSession("sales-coach", {}, { siteKey });
  await chat(siteKey, s.token);
  const r = await call(`/v1/sessions/${s.sessionId}/feedback`, {
    method: "POST",
    json: { messageId: "a1", rating: "down", comment },
    headers: auth(s.token),
  });
  expect(r.res.status).toBe(201);
  await r.done();
}

const spans = (s: Span): Span[] => [s, ...s.children.flatMap(spans)];

describe("strategy desk (Durable Object per site and agent, scripted demo model)", () => {
  it(
    "debounces three requests into one run: C scores 70, the second loop passes, the gate passes, " +
      "production moves, the next chat follows it",
    async () => {
      const siteKey = await site();
      const desk = strategyDesk(env, { siteKey }, "sales-coach");
      const before = Date.now();
      await thumbsDown(siteKey, "too pushy about price");
      const first = await desk.nextRunAt();
      expect(first).toBeGreaterThanOrEqual(before + 60_000);
      await admin(`/v1/admin/desk/sales-coach/notes?site=${siteKey}`, {
        method: "POST",
        json: { text: "Reps say customers feel rushed on price" },
      });
      const note = await admin(`/v1/admin/desk/sales-coach/notes?site=${siteKey}`, {
        method: "POST",
        json: { text: "Keep the samples offer" },
      });
      expect(note.status).toBe(202);
      // Each request re-armed the alarm: the run waits for the newest.
      expect(await desk.nextRunAt()).toBe(note.body.runAt);
      expect(note.body.runAt).toBeGreaterThanOrEqual(first!);
      const q = await admin(`/v1/admin/desk/sales-coach/queue?site=${siteKey}`);
      expect(q.body, JSON.stringify(q)).toHaveProperty("queue");
      expect(q.body.queue).toHaveLength(3);

      expect(await runDurableObjectAlarm(desk)).toBe(true);
      const runs = (await admin(`/v1/admin/desk/sales-coach/runs?site=${siteKey}`)).body.runs;
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({
        status: "promoted",
        loops: 2,
        scores: [70, 90],
        gate: { passed: true, cases: 1 },
      });
      expect(runs[0].requestIds).toHaveLength(3);
      expect(runs[0].tokens).toBeGreaterThan(0);
      expect((await admin(`/v1/admin/desk/sales-coach/queue?site=${siteKey}`)).body.queue).toEqual([]);

      const run = (await admin(`/v1/admin/desk/sales-coach/runs/${runs[0].id}?site=${siteKey}`)).body;
      const all = spans(run.trace);
      expect(all.map((s) => s.kind)).toEqual(
        expect.arrayContaining(["run", "loop", "agent", "completion", "tool", "gate"]),
      );
      expect(all.find((s) => s.kind === "completion")!.attrs).toMatchObject({ model: "parley-demo" });

      const strategies = (await admin(`/v1/admin/prompts/sales-coach/strategies?site=${siteKey}`)).body;
      expect(strategies.labels).toMatchObject({ production: 2, candidate: 2, latest: 2 });
      const history = (await admin(`/v1/admin/prompts/sales-coach/strategies/history?site=${siteKey}&label=production`))
        .body.moves;
      expect(history[0]).toMatchObject({ from: 1, to: 2, by: "desk" });
      expect(
        (await admin(`/v1/admin/prompts/sales-coach/strategies/versions/production?site=${siteKey}`)).body.text,
      ).toContain("only when the customer asks about cost");

      const next = await openSession("sales-coach", {}, { siteKey });
      const action = await chat(siteKey, next.token);
      const reply = await chat(siteKey, next.token, [
        { id: "a1", role: "assistant", content: action },
        { id: "o1", role: "user", content: 'Observation: {"hits": []}' },
      ]);
      expect(reply).toContain("Leave price for when they ask about cost");
      expect(reply).not.toContain("Close on price");
      // The turn's trace names the prompt versions that answered it.
      const trace = (await sessionRoom(env, next.sessionId).getState()).trace.filter((t) => t.kind === "completion");
      expect(trace.at(-1)!.detail).toMatchObject({ prompt: "system@1 strategies@2 guidance@2" });
    },
  );

  it("queues the agent's own suggest_strategy_update as a request", async () => {
    const adminKeySha256 = await sha256Hex(ADMIN);
    const agentId = `coach-${crypto.randomUUID().slice(0, 8)}`;
    await env.CONFIG.put(
      `agent:${agentId}`,
      JSON.stringify({
        id: agentId,
        name: { en: "Coach", "zh-CN": "教练" },
        description: { en: "d", "zh-CN": "d" },
        greeting: { en: "hi", "zh-CN": "你好" },
        systemPrompt: "You coach.",
        model: "gpt-4o-mini",
        tools: ["suggest_strategy_update"],
      }),
    );
    const siteKey = await putSite({ adminKeySha256, agents: [agentId] });
    const s = await openSession(agentId, {}, { siteKey });
    const t = await call("/v1/tools/suggest_strategy_update", {
      method: "POST",
      json: {
        arguments: {
          update: "Ask about the clinic's patients before suggesting products",
          context: "the rep felt lectured",
        },
      },
      headers: auth(s.token),
    });
    expect(t.res.status).toBe(200);
    const body = await json(t.res);
    await t.done();
    expect(body.result.queued).toBeTruthy();
    const queue = (await admin(`/v1/admin/desk/${agentId}/queue?site=${siteKey}`)).body.queue;
    expect(queue).toEqual([
      expect.objectContaining({
        source: "tool",
        text: "Ask about the clinic's patients before suggesting products",
        context: { session: s.sessionId, "the agent's context": "the rep felt lectured" },
      }),
    ]);
    const bad = await call("/v1/tools/suggest_strategy_update", {
      method: "POST",
      json: { arguments: { update: "short" } },
      headers: auth(s.token),
    });
    expect(bad.res.status).toBe(400);
  });

  it("rolls back a failed run: requests queued again unchanged, production untouched, run failed", async () => {
    const siteKey = await site();
    const desk = strategyDesk(env, { siteKey }, "sales-coach");
    await admin(`/v1/admin/desk/sales-coach/notes?site=${siteKey}`, {
      method: "POST",
      json: { text: "Answer in rhyme, visitors love it" },
    });
    const queued = (await admin(`/v1/admin/desk/sales-coach/queue?site=${siteKey}`)).body.queue;
    await runDurableObjectAlarm(desk);
    const [run] = (await admin(`/v1/admin/desk/sales-coach/runs?site=${siteKey}`)).body.runs;
    expect(run).toMatchObject({ status: "failed", scores: [35, 35, 35], candidate: {} });
    expect(run.reasons).toHaveLength(3);
    expect(run.reasons[0]).toMatch(/review scored 35/);
    expect((await admin(`/v1/admin/desk/sales-coach/queue?site=${siteKey}`)).body.queue).toEqual(queued);
    const labels = (await admin(`/v1/admin/prompts/sales-coach/strategies?site=${siteKey}`)).body.labels;
    expect(labels).toEqual({ production: 1, latest: 1 });
  });

  it("runs one at a time, and detects a run that died", async () => {
    const siteKey = await site();
    const desk = strategyDesk(env, { siteKey }, "sales-coach");
    await desk.enqueue(siteKey, "sales-coach", { source: "owner", text: "Be more concise" }, 60_000);
    const [a, b] = await Promise.all([desk.tick(), desk.tick()]);
    expect([a.started, b.started].filter(Boolean)).toHaveLength(1);
    expect([a.reason, b.reason].join(" ")).toMatch(/still running|starting/);

    // A run left "running" with an old heartbeat (its isolate died): failed, and its requests run again.
    await desk.enqueue(siteKey, "sales-coach", { source: "owner", text: "Greet returning reps by name" }, 60_000);
    await runInDurableObject(desk, async (_instance: StrategyDesk, state) => {
      const [req] = state.storage.sql.exec<{ id: string }>("SELECT id FROM requests WHERE done = 0").toArray();
      const body = JSON.stringify(startedRun({ id: "ghost", trigger: "alarm", startedAt: 1, requestIds: [req.id] }));
      state.storage.sql.exec(
        "INSERT INTO runs (id, started, status, heartbeat, body) VALUES ('ghost', 1, 'running', ?, ?)",
        Date.now() - DEAD_AFTER_MS - 1000,
        body,
      );
      state.storage.sql.exec("UPDATE requests SET run_id = 'ghost' WHERE id = ?", req.id);
    });
    const again = await desk.tick();
    expect(again.started).toBeTruthy();
    expect((await desk.run("ghost"))!.status).toBe("failed");
    expect((await desk.run("ghost"))!.reasons.at(-1)).toMatch(/died: no progress/);
    expect((await desk.run(again.started!))!.requestIds).toHaveLength(1);
  });

  it("without auto-promotion the owner decides: promote, roll back in one call, reject; moves recorded", async () => {
    const siteKey = await site({ autoPromote: false });
    const desk = strategyDesk(env, { siteKey }, "sales-coach");
    await admin(`/v1/admin/desk/sales-coach/notes?site=${siteKey}`, {
      method: "POST",
      json: { text: "too pushy about price" },
    });
    expect((await admin(`/v1/admin/desk/sales-coach/run?site=${siteKey}`, { method: "POST" })).status).toBe(202);
    await runDurableObjectAlarm(desk);
    const [run] = await settled(desk);
    expect(run.status).toBe("candidate");
    expect((await admin(`/v1/admin/prompts/sales-coach/strategies?site=${siteKey}`)).body.labels).toMatchObject({
      production: 1,
      candidate: 2,
    });

    const promoted = await admin(`/v1/admin/desk/sales-coach/runs/${run.id}/promote?site=${siteKey}`, {
      method: "POST",
      json: { why: "reads well" },
    });
    expect(promoted.body).toMatchObject({
      status: "promoted",
      promoted: { "sales-coach/strategies": { from: 1, to: 2 } },
    });
    const again = await admin(`/v1/admin/desk/sales-coach/runs/${run.id}/promote?site=${siteKey}`, {
      method: "POST",
      json: { why: "twice" },
    });
    expect(again.status).toBe(409);

    const rolled = await admin(`/v1/admin/desk/sales-coach/rollback?site=${siteKey}`, {
      method: "POST",
      json: { why: "customers missed the discount" },
    });
    expect(rolled.body.status).toBe("rolled_back");
    const history = (await admin(`/v1/admin/prompts/sales-coach/strategies/history?site=${siteKey}&label=production`))
      .body.moves;
    expect(history.map((m: any) => [m.from, m.to, m.by])).toEqual([
      [2, 1, "owner"],
      [1, 2, "owner"],
      [null, 1, "seed"],
    ]);
    expect(history[0].why).toMatch(/rollback of run .*customers missed the discount/);

    await admin(`/v1/admin/desk/sales-coach/notes?site=${siteKey}`, {
      method: "POST",
      json: { text: "be more concise" },
    });
    await runDurableObjectAlarm(desk);
    const [second] = await settled(desk, 2);
    const rejected = await admin(`/v1/admin/desk/sales-coach/runs/${second.id}/reject?site=${siteKey}`, {
      method: "POST",
      json: { why: "not now" },
    });
    expect(rejected.body.status).toBe("rejected");
    expect(
      (await admin(`/v1/admin/prompts/sales-coach/strategies?site=${siteKey}`)).body.labels.candidate,
    ).toBeUndefined();
  });

  it("stops at the desk's daily tokens: the run says so and its requests wait", async () => {
    const siteKey = await site({ dailyTokens: 200 });
    const desk = strategyDesk(env, { siteKey }, "sales-coach");
    await desk.enqueue(siteKey, "sales-coach", { source: "owner", text: "too pushy about price" }, 0);
    await runDurableObjectAlarm(desk);
    const [run] = await settled(desk);
    expect(run.status).toBe("failed");
    expect(run.reasons[0]).toMatch(/stopped by its budget: the desk's token allowance ran out/);
    expect(await desk.pending()).toHaveLength(1);
  });

  it("refuses the admin routes for another site's agent", async () => {
    const siteKey = await sha256Hex(ADMIN).then((adminKeySha256) =>
      putSite({ adminKeySha256, agents: ["derm-consult"] }),
    );
    expect((await admin(`/v1/admin/desk/sales-coach/queue?site=${siteKey}`)).status).toBe(404);
  });
});
