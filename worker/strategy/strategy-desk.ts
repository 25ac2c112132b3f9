import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env.ts";
import { loadAgent, loadSite } from "../config/config-store.ts";
import { spendSiteTokens } from "../limits/admission.ts";
import { siteLedger, utcDay } from "../limits/site-ledger.ts";
import { forgetAgentPrompt } from "../prompts/agent-prompt-cache.ts";
import { LABELS } from "../prompts/prompt-paths.ts";
import { promptRegistry } from "../prompts/prompt-registry.ts";
import { RegistryError } from "../prompts/registry-types.ts";
import { executeRun, promote } from "./desk-runner.ts";
import { startedRun, type DeskRequestInput, type QueuedRequest, type RunRecord } from "./desk-types.ts";

/** A running run that has not completed anything for this long died (evicted, crashed): it is retried. */
export const DEAD_AFTER_MS = 5 * 60_000;
/** Thumbs-up questions kept for the regression set. */
const GOOD_KEPT = 20;

type RequestRow = { id: string; source: string; text: string; context: string; at: number; run_id: string | null };
type RunRow = { id: string; body: string; heartbeat: number };

const toRequest = (r: RequestRow): QueuedRequest => ({
  id: r.id,
  source: r.source as QueuedRequest["source"],
  text: r.text,
  context: JSON.parse(r.context) as Record<string, string>,
  at: r.at,
  runId: r.run_id,
});

/**
 * One per site and agent: seed 003's background update. Each request re-arms the alarm (the newest
 * supersedes the waiting ones: debounce); the alarm runs with every request queued so far. One run
 * at a time (single flight): a request that arrives during a run waits for the next, which the end
 * of the run schedules. A run whose heartbeat stopped is marked failed and its requests run again.
 * A failed run puts its requests back unchanged and leaves production as it was (rollback).
 */
export class StrategyDesk extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** In-memory guard on top of the stored one: a second tick in this instance never starts a run. */
  private active = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    this.sql.exec(`CREATE TABLE IF NOT EXISTS requests (id TEXT PRIMARY KEY, source TEXT NOT NULL, text TEXT NOT NULL,
      context TEXT NOT NULL,
      at INTEGER NOT NULL, run_id TEXT, done INTEGER NOT NULL DEFAULT 0)`);
    this.sql.exec(
      "CREATE TABLE IF NOT EXISTS runs (id TEXT PRIMARY KEY, started INTEGER NOT NULL, status TEXT NOT " +
        "NULL, heartbeat INTEGER NOT NULL, body TEXT NOT NULL)",
    );
    this.sql.exec("CREATE TABLE IF NOT EXISTS good (question TEXT PRIMARY KEY, at INTEGER NOT NULL)");
    this.sql.exec("CREATE TABLE IF NOT EXISTS usage (day TEXT PRIMARY KEY, tokens INTEGER NOT NULL)");
  }

  /** Queues a request and re-arms the alarm `debounceMs` from now. */
  async enqueue(
    siteKey: string,
    agentId: string,
    input: DeskRequestInput,
    debounceMs: number,
  ): Promise<{ request: QueuedRequest; runAt: number }> {
    this.remember(siteKey, agentId);
    const request: QueuedRequest = {
      ...input,
      context: input.context ?? {},
      id: crypto.randomUUID(),
      at: Date.now(),
      runId: null,
    };
    this.sql.exec(
      "INSERT INTO requests (id, source, text, context, at) VALUES (?, ?, ?, ?, ?)",
      request.id,
      request.source,
      request.text,
      JSON.stringify(request.context),
      request.at,
    );
    const runAt = Date.now() + debounceMs;
    await this.ctx.storage.setAlarm(runAt);
    return { request, runAt };
  }

  /** A visitor message whose reply was rated up: a case for the regression gate. */
  async noteGood(siteKey: string, agentId: string, question: string): Promise<void> {
    this.remember(siteKey, agentId);
    if (!question.trim()) return;
    this.sql.exec(
      "INSERT INTO good (question, at) VALUES (?, ?) ON CONFLICT(question) DO UPDATE SET at = excluded.at",
      question.slice(0, 2000),
      Date.now(),
    );
    this.sql.exec(
      "DELETE FROM good WHERE question IN (SELECT question FROM good ORDER BY at DESC LIMIT -1 OFFSET ?)",
      GOOD_KEPT,
    );
  }

  /** Requests not yet done: waiting (runId null) or held by the running run. */
  async pending(): Promise<QueuedRequest[]> {
    return this.sql.exec<RequestRow>("SELECT * FROM requests WHERE done = 0 ORDER BY at").toArray().map(toRequest);
  }

  async runs(limit = 20): Promise<Array<Omit<RunRecord, "trace">>> {
    return this.sql
      .exec<RunRow>("SELECT body FROM runs ORDER BY started DESC LIMIT ?", limit)
      .toArray()
      .map((r) => {
        const { trace: _t, ...rest } = JSON.parse(r.body) as RunRecord;
        return rest;
      });
  }

  async run(id: string): Promise<RunRecord | null> {
    const row = this.sql.exec<RunRow>("SELECT body FROM runs WHERE id = ?", id).toArray()[0];
    return row ? (JSON.parse(row.body) as RunRecord) : null;
  }

  async nextRunAt(): Promise<number | null> {
    return this.ctx.storage.getAlarm();
  }

  /** The owner's "run now": the alarm fires at once (a run already going finishes first). */
  async runNow(siteKey: string, agentId: string): Promise<{ runAt: number }> {
    this.remember(siteKey, agentId);
    const runAt = Date.now();
    await this.ctx.storage.setAlarm(runAt);
    return { runAt };
  }

  override async alarm(): Promise<void> {
    await this.tick("alarm");
  }

  /**
   * Starts a run with every waiting request, unless one is running (then the end of that run
   * re-arms the alarm). Answers what it did, for tests and the trace.
   */
  async tick(trigger: RunRecord["trigger"] = "alarm"): Promise<{ started: string | null; reason: string }> {
    const running = this.sql.exec<RunRow>("SELECT id, body, heartbeat FROM runs WHERE status = 'running'").toArray();
    for (const r of running) {
      if (this.active || Date.now() - r.heartbeat < DEAD_AFTER_MS)
        return { started: null, reason: `run ${r.id} is still running` };
      // Dead: its requests go back to the queue unchanged, and it is recorded as failed.
      const dead = JSON.parse(r.body) as RunRecord;
      this.store({
        ...dead,
        status: "failed",
        endedAt: Date.now(),
        reasons: [
          ...dead.reasons,
          `died: no progress for ${Math.round((Date.now() - r.heartbeat) / 1000)} s; its requests were queued again`,
        ],
      });
      this.sql.exec("UPDATE requests SET run_id = NULL WHERE run_id = ?", r.id);
    }
    if (this.active) return { started: null, reason: "a run is starting" };
    const siteKey = this.meta("site"),
      agentId = this.meta("agent");
    const requests = this.sql
      .exec<RequestRow>("SELECT * FROM requests WHERE done = 0 AND run_id IS NULL ORDER BY at")
      .toArray()
      .map(toRequest);
    if (!siteKey || !agentId || !requests.length) return { started: null, reason: "nothing queued" };
    this.active = true;
    try {
      return await this.execute(siteKey, agentId, requests, trigger);
    } finally {
      this.active = false;
      // Requests that arrived during the run wait the debounce time again, then run.
      if (
        this.sql.exec("SELECT 1 FROM requests WHERE done = 0 AND run_id IS NULL LIMIT 1").toArray().length &&
        !(await this.ctx.storage.getAlarm())
      ) {
        const site = await loadSite(this.env, siteKey).catch(() => null);
        await this.ctx.storage.setAlarm(Date.now() + (site?.desk.debounceMs ?? 60_000));
      }
    }
  }

  private async execute(siteKey: string, agentId: string, requests: QueuedRequest[], trigger: RunRecord["trigger"]) {
    const [site, agent] = await Promise.all([loadSite(this.env, siteKey), loadAgent(this.env, siteKey, agentId)]);
    if (!site || !agent) return { started: null, reason: `site ${siteKey} or agent ${agentId} is not configured` };
    const day = utcDay();
    const deskSpent =
      this.sql.exec<{ tokens: number }>("SELECT tokens FROM usage WHERE day = ?", day).toArray()[0]?.tokens ?? 0;
    // What the day's budget has given out, the chat isolates' slices included (their spending is reported late).
    const siteSpent = await siteLedger(this.env, siteKey).charges(day);
    const allowance = Math.min(site.desk.dailyTokens - deskSpent, site.budgets.sitePerDay - siteSpent);
    const record = startedRun({
      id: crypto.randomUUID(),
      trigger,
      startedAt: Date.now(),
      requestIds: requests.map((r) => r.id),
    });
    if (allowance <= 0) {
      this.store({
        ...record,
        status: "failed",
        endedAt: Date.now(),
        reasons: [
          `not started: the desk's daily tokens (${site.desk.dailyTokens}) or the site's daily budget is spent; ` +
            "the requests wait",
        ],
      });
      return { started: record.id, reason: "budget" };
    }
    this.ctx.storage.transactionSync(() => {
      this.store(record);
      for (const r of requests) this.sql.exec("UPDATE requests SET run_id = ? WHERE id = ?", record.id, r.id);
    });
    const good = this.sql
      .exec<{ question: string }>("SELECT question FROM good ORDER BY at DESC")
      .toArray()
      .map((r) => r.question);
    const heartbeat = () => void this.sql.exec("UPDATE runs SET heartbeat = ? WHERE id = ?", Date.now(), record.id);
    const result = await executeRun(
      { env: this.env, site, agent, requests, goodQuestions: good, allowance, heartbeat },
      record,
    );
    this.ctx.storage.transactionSync(() => {
      this.store(result);
      // A failed run rolls back: its requests wait again, unchanged. Otherwise they are answered.
      if (result.status === "failed") this.sql.exec("UPDATE requests SET run_id = NULL WHERE run_id = ?", record.id);
      else this.sql.exec("UPDATE requests SET done = 1 WHERE run_id = ?", record.id);
      this.sql.exec(
        "INSERT INTO usage (day, tokens) VALUES (?, ?) ON CONFLICT(day) DO UPDATE SET tokens = tokens + " +
          "excluded.tokens",
        day,
        result.tokens,
      );
    });
    if (result.tokens > 0) await spendSiteTokens(this.env, siteKey, day, result.tokens).catch(() => {});
    return { started: record.id, reason: result.status };
  }

  /** The owner promotes a candidate run (or one the gate refused, knowingly). */
  async promoteRun(runId: string, why: string): Promise<RunRecord> {
    const run = this.mustRun(runId, ["candidate", "refused"]);
    const promoted = await promote(this.env, this.meta("site")!, this.meta("agent")!, run.candidate, "owner", why);
    return this.store({
      ...run,
      status: "promoted",
      promoted,
      reasons: [...run.reasons, `promoted by the owner: ${why}`],
    });
  }

  /** The owner rejects a candidate: the candidate label comes off its versions; production never moved. */
  async rejectRun(runId: string, why: string): Promise<RunRecord> {
    const run = this.mustRun(runId, ["candidate", "refused"]);
    const registry = promptRegistry(this.env, this.meta("site")!);
    for (const [part, version] of Object.entries(run.candidate)) {
      const path = `${this.meta("agent")}/${part}`;
      if ((await registry.versions(path)).labels[LABELS.candidate] === version)
        await registry.moveLabel(path, LABELS.candidate, null, "owner", why);
    }
    return this.store({ ...run, status: "rejected", reasons: [...run.reasons, `rejected by the owner: ${why}`] });
  }

  /** Moves production back to where a promoted run (the latest one by default) found it: one call, recorded. */
  async rollbackRun(runId: string | undefined, why: string): Promise<RunRecord> {
    const id =
      runId ??
      this.sql
        .exec<{ id: string }>("SELECT id FROM runs WHERE status = 'promoted' ORDER BY started DESC LIMIT 1")
        .toArray()[0]?.id;
    if (!id) throw new RegistryError("not_found", "No promoted run to roll back");
    const run = this.mustRun(id, ["promoted"]);
    const registry = promptRegistry(this.env, this.meta("site")!);
    for (const [path, move] of Object.entries(run.promoted)) {
      if (move.from !== null)
        await registry.moveLabel(path, LABELS.production, move.from, "owner", `rollback of run ${id}: ${why}`);
    }
    forgetAgentPrompt(this.meta("site")!, this.meta("agent")!);
    return this.store({ ...run, status: "rolled_back", reasons: [...run.reasons, `rolled back by the owner: ${why}`] });
  }

  private mustRun(id: string, allowed: RunRecord["status"][]): RunRecord {
    const row = this.sql.exec<RunRow>("SELECT body FROM runs WHERE id = ?", id).toArray()[0];
    if (!row) throw new RegistryError("not_found", `No run ${id}`);
    const run = JSON.parse(row.body) as RunRecord;
    if (!allowed.includes(run.status))
      throw new RegistryError(
        "conflict",
        `Run ${id} is ${run.status}; this needs a run that is ${allowed.join(" or ")}`,
      );
    return run;
  }

  private store(run: RunRecord): RunRecord {
    this.sql.exec(
      `INSERT INTO runs (id, started, status, heartbeat, body) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT(id) DO UPDATE SET status = excluded.status, body = excluded.body`,
      run.id,
      run.startedAt,
      run.status,
      Date.now(),
      JSON.stringify(run),
    );
    return run;
  }

  private remember(siteKey: string, agentId: string): void {
    this.sql.exec(
      "INSERT INTO meta (key, value) VALUES ('site', ?), ('agent', ?) ON CONFLICT(key) DO UPDATE SET value " +
        "= excluded.value",
      siteKey,
      agentId,
    );
  }

  private meta(key: string): string | undefined {
    return this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value;
  }
}

export function strategyDesk(env: Env, siteKey: string, agentId: string) {
  return env.STRATEGY_DESK.get(env.STRATEGY_DESK.idFromName(`${siteKey}\n${agentId}`));
}
