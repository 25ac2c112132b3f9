import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env.ts";

/** Days of token counters kept. */
const DAYS_KEPT = 31;

/** The UTC day a token is counted in: `2026-11-23`. */
export const utcDay = (now = Date.now()) => new Date(now).toISOString().slice(0, 10);

/**
 * One per site: the site's daily token counters (what the daily budget checks). SQLite keeps them
 * across evictions; the day's totals are also held in memory. The chat path does not call it per
 * turn: isolates lease slices of the day's budget (budget-lease.ts) and report their spending when
 * they ask for more. (The site's conversation list is the SiteIndex's, worker/site-index/.)
 */
export class SiteLedger extends DurableObject<Env> {
  /** Tokens spent per day, as reported. */
  private readonly totals = new Map<string, number>();
  /** Tokens charged against the day's budget: slices granted, spending beyond them, the desk's runs. */
  private readonly chargedByDay = new Map<string, number>();
  /** Calls answered since the object started: what bench:load divides by turns (no route reads it). */
  private answered = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS usage (day TEXT PRIMARY KEY, tokens INTEGER NOT NULL)");
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS charged (day TEXT PRIMARY KEY, tokens INTEGER NOT NULL)");
  }

  async spent(day: string): Promise<number> {
    this.answered++;
    return this.used(day);
  }

  private used(day: string): number {
    let total = this.totals.get(day);
    if (total === undefined) {
      total =
        this.ctx.storage.sql.exec<{ tokens: number }>("SELECT tokens FROM usage WHERE day = ?", day).toArray()[0]
          ?.tokens ?? 0;
      this.totals.set(day, total);
    }
    return total;
  }

  private charged(day: string): number {
    let total = this.chargedByDay.get(day);
    if (total === undefined) {
      const row = this.ctx.storage.sql
        .exec<{ tokens: number }>("SELECT tokens FROM charged WHERE day = ?", day)
        .toArray()[0];
      // A day counted before slices existed: what was spent is what was charged.
      total = row?.tokens ?? this.used(day);
      this.chargedByDay.set(day, total);
    }
    return total;
  }

  /** What the day's budget has granted or counted so far (slices held by isolates included). */
  async charges(day: string): Promise<number> {
    this.answered++;
    return this.charged(day);
  }

  /** Spending outside the chat path (the strategy desk's runs): spent and charged at once. */
  async add(day: string, tokens: number): Promise<number> {
    this.answered++;
    const n = Math.max(0, Math.round(tokens));
    this.record(day, n, n);
    return this.used(day);
  }

  /**
   * A slice of the day's budget for one isolate: at most `want`, and never more than the budget has
   * left after every slice granted so far. The isolate reports what it spent since it last asked,
   * and what it spent beyond its slices (charged now, unchecked: it has been spent).
   */
  async lease(
    day: string,
    budget: number,
    want: number,
    report: { used: number; overdraft: number },
  ): Promise<{ granted: number; charged: number }> {
    this.answered++;
    const overdraft = Math.max(0, Math.round(report.overdraft));
    const before = this.charged(day) + overdraft;
    const granted = Math.max(0, Math.min(Math.round(want), budget - before));
    this.record(day, Math.max(0, Math.round(report.used)), overdraft + granted);
    return { granted, charged: this.charged(day) };
  }

  /** Calls answered since the object started (bench:load). */
  async calls(): Promise<number> {
    return this.answered;
  }

  private record(day: string, used: number, charged: number): void {
    const spent = this.used(day) + used;
    const total = this.charged(day) + charged;
    this.totals.set(day, spent);
    this.chargedByDay.set(day, total);
    const upsert = (table: string, value: number) =>
      this.ctx.storage.sql.exec(
        `INSERT INTO ${table} (day, tokens) VALUES (?, ?) ON CONFLICT(day) DO UPDATE SET tokens = excluded.tokens`,
        day,
        value,
      );
    if (used) upsert("usage", spent);
    if (charged) upsert("charged", total);
    if (this.totals.size > 2 || this.chargedByDay.size > 2) {
      for (const d of this.totals.keys()) if (d !== day) this.totals.delete(d);
      for (const d of this.chargedByDay.keys()) if (d !== day) this.chargedByDay.delete(d);
      const old = utcDay(Date.now() - DAYS_KEPT * 86_400_000);
      this.ctx.storage.sql.exec("DELETE FROM usage WHERE day < ?", old);
      this.ctx.storage.sql.exec("DELETE FROM charged WHERE day < ?", old);
    }
  }
}
