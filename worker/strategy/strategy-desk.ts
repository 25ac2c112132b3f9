import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env.ts";
import { loadAgent, loadSite } from "../config/config-store.ts";
import { spendSiteTokens } from "../limits/admission.ts";
import { utcDay } from "../limits/site-ledger.ts";
import { forgetAgentPrompt } from "../prompts/agent-prompt-cache.ts";
import { LABELS } from "../prompts/prompt-paths.ts";
import { RegistryError } from "../prompts/registry-types.ts";
import { executeRun, promote } from "./desk-runner.ts";
import type { DeskRequestInput, QueuedRequest, RunRecord, RunSummary } from "../../shared/admin/desk-records.ts";
import { startedRun } from "./desk-types.ts";
import { DeskStore } from "./desk-store.ts";
import { siteLedger, promptRegistry } from "../objects.ts";

/** A running run that has not completed anything for this long died (evicted, crashed): it is retried. */
export const DEAD_AFTER_MS = 5 * 60_000;
/**
 * One per site and agent: the strategy desk's background update. Each request re-arms the alarm (the newest
 * supersedes the waiting ones: debounce); the alarm runs with every request queued so far. One run
 * at a time (single flight): a request that arrives during a run waits for the next, which the end
 * of the run schedules. A run whose heartbeat stopped is marked failed and its requests run again.
 * A failed run puts its requests back unchanged and leaves production as it was (rollback).
 */
export class StrategyDesk extends DurableObject<Env> {
  private readonly db: DeskStore;
  /** In-memory guard on top of the stored one: a second tick in this instance never starts a run. */
  private active = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = new DeskStore(ctx.storage);
  }

  /** Queues a request and re-arms the alarm `debounceMs` from now. */
  async enqueue(
    siteKey: string,
    agentId: string,
    input: DeskRequestInput,
    debounceMs: number,
  ): Promise<{ request: QueuedRequest; runAt: number }> {
    this.db.remember(siteKey, agentId);
    const request: QueuedRequest = {
      ...input,
      context: input.context ?? {},
      id: crypto.randomUUID(),
      at: Date.now(),
      runId: null,
    };
    this.db.addRequest(request);
    const runAt = Date.now() + debounceMs;
    await this.ctx.storage.setAlarm(runAt);
    return { request, runAt };
  }

  /** A visitor message whose reply was rated up: a case for the regression gate. */
  async noteGood(siteKey: string, agentId: string, question: string): Promise<void> {
    this.db.remember(siteKey, agentId);
    if (question.trim()) this.db.noteGood(question);
  }

  /** Requests not yet done: waiting (runId null) or held by the running run. */
  async pending(): Promise<QueuedRequest[]> {
    return this.db.pending();
  }

  async runs(limit = 20): Promise<RunSummary[]> {
    return this.db.runs(limit);
  }

  async run(id: string): Promise<RunRecord | null> {
    return this.db.run(id);
  }

  async nextRunAt(): Promise<number | null> {
    return this.ctx.storage.getAlarm();
  }

  /** The owner's "run now": the alarm fires at once (a run already going finishes first). */
  async runNow(siteKey: string, agentId: string): Promise<{ runAt: number }> {
    this.db.remember(siteKey, agentId);
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
    for (const r of this.db.running()) {
      if (this.active || Date.now() - r.heartbeat < DEAD_AFTER_MS)
        return { started: null, reason: `run ${r.id} is still running` };
      // Dead: its requests go back to the queue unchanged, and it is recorded as failed.
      const dead = JSON.parse(r.body) as RunRecord;
      this.db.store({
        ...dead,
        status: "failed",
        endedAt: Date.now(),
        reasons: [
          ...dead.reasons,
          `died: no progress for ${Math.round((Date.now() - r.heartbeat) / 1000)} s; its requests were queued again`,
        ],
      });
      this.db.requeue(r.id);
    }
    if (this.active) return { started: null, reason: "a run is starting" };
    const siteKey = this.db.meta("site"),
      agentId = this.db.meta("agent");
    const requests = this.db.waiting();
    if (!siteKey || !agentId || !requests.length) return { started: null, reason: "nothing queued" };
    this.active = true;
    try {
      return await this.execute(siteKey, agentId, requests, trigger);
    } finally {
      this.active = false;
      // Requests that arrived during the run wait the debounce time again, then run.
      if (this.db.anyWaiting() && !(await this.ctx.storage.getAlarm())) {
        const site = await loadSite(this.env, siteKey).catch(() => null);
        await this.ctx.storage.setAlarm(Date.now() + (site?.desk.debounceMs ?? 60_000));
      }
    }
  }

  private async execute(siteKey: string, agentId: string, requests: QueuedRequest[], trigger: RunRecord["trigger"]) {
    const [site, agent] = await Promise.all([loadSite(this.env, siteKey), loadAgent(this.env, siteKey, agentId)]);
    if (!site || !agent) return { started: null, reason: `site ${siteKey} or agent ${agentId} is not configured` };
    const day = utcDay();
    const deskSpent = this.db.spentOn(day);
    // What the day's budget has given out, the chat isolates' slices included (their spending is reported late).
    const siteSpent = await siteLedger(this.env, siteKey).charges(day);
    const allowance = Math.min(site.desk.dailyTokens - deskSpent, site.budgets.sitePerDay - siteSpent);
    const record = startedRun(
      { id: crypto.randomUUID(), trigger, startedAt: Date.now(), requestIds: requests.map((r) => r.id) },
      requests,
    );
    if (allowance <= 0) {
      this.db.store({
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
    this.db.claim(record, requests);
    const goodQuestions = this.db.goodQuestions();
    const heartbeat = () => this.db.heartbeat(record.id);
    const result = await executeRun(
      { env: this.env, site, agent, requests, goodQuestions, allowance, heartbeat },
      record,
    );
    // A failed run rolls back: its requests wait again, unchanged. Otherwise they are answered.
    this.db.settle(result, day);
    if (result.tokens > 0) await spendSiteTokens(this.env, siteKey, day, result.tokens).catch(() => {});
    return { started: record.id, reason: result.status };
  }

  /** The owner promotes a candidate run (or one the gate refused, knowingly). */
  async promoteRun(runId: string, why: string): Promise<RunRecord> {
    const run = this.mustRun(runId, ["candidate", "refused"]);
    const promoted = await promote(
      this.env,
      this.db.meta("site")!,
      this.db.meta("agent")!,
      run.candidate,
      "owner",
      why,
    );
    return this.db.store({
      ...run,
      status: "promoted",
      promoted,
      reasons: [...run.reasons, `promoted by the owner: ${why}`],
    });
  }

  /** The owner rejects a candidate: the candidate label comes off its versions; production never moved. */
  async rejectRun(runId: string, why: string): Promise<RunRecord> {
    const run = this.mustRun(runId, ["candidate", "refused"]);
    const registry = promptRegistry(this.env, this.db.meta("site")!);
    for (const [part, version] of Object.entries(run.candidate)) {
      const path = `${this.db.meta("agent")}/${part}`;
      if ((await registry.versions(path)).labels[LABELS.candidate] === version)
        await registry.moveLabel(path, LABELS.candidate, null, "owner", why);
    }
    return this.db.store({ ...run, status: "rejected", reasons: [...run.reasons, `rejected by the owner: ${why}`] });
  }

  /** Moves production back to where a promoted run (the latest one by default) found it: one call, recorded. */
  async rollbackRun(runId: string | undefined, why: string): Promise<RunRecord> {
    const id = runId ?? this.db.lastPromoted();
    if (!id) throw new RegistryError("not_found", "No promoted run to roll back");
    const run = this.mustRun(id, ["promoted"]);
    const registry = promptRegistry(this.env, this.db.meta("site")!);
    for (const [path, move] of Object.entries(run.promoted)) {
      if (move.from !== null)
        await registry.moveLabel(path, LABELS.production, move.from, "owner", `rollback of run ${id}: ${why}`);
    }
    forgetAgentPrompt(this.db.meta("site")!, this.db.meta("agent")!);
    return this.db.store({
      ...run,
      status: "rolled_back",
      reasons: [...run.reasons, `rolled back by the owner: ${why}`],
    });
  }

  private mustRun(id: string, allowed: RunRecord["status"][]): RunRecord {
    const run = this.db.run(id);
    if (!run) throw new RegistryError("not_found", `No run ${id}`);
    if (!allowed.includes(run.status))
      throw new RegistryError(
        "conflict",
        `Run ${id} is ${run.status}; this needs a run that is ${allowed.join(" or ")}`,
      );
    return run;
  }
}
