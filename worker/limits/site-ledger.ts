import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env.ts";

/** Days of token counters kept. */
const DAYS_KEPT = 31;

/** The UTC day a token is counted in: `2026-11-23`. */
export const utcDay = (now = Date.now()) => new Date(now).toISOString().slice(0, 10);

/**
 * One per site: the site's daily token counters (what the daily budget checks). SQLite keeps them
 * across evictions; the day's total is also held in memory, so the budget check on the chat path
 * reads no storage. (The site's conversation list is the SiteIndex's, worker/site-index/.)
 */
export class SiteLedger extends DurableObject<Env> {
  private readonly totals = new Map<string, number>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS usage (day TEXT PRIMARY KEY, tokens INTEGER NOT NULL)");
  }

  async spent(day: string): Promise<number> {
    let total = this.totals.get(day);
    if (total === undefined) {
      total =
        this.ctx.storage.sql.exec<{ tokens: number }>("SELECT tokens FROM usage WHERE day = ?", day).toArray()[0]
          ?.tokens ?? 0;
      this.totals.set(day, total);
    }
    return total;
  }

  async add(day: string, tokens: number): Promise<number> {
    const total = (await this.spent(day)) + Math.max(0, Math.round(tokens));
    this.totals.set(day, total);
    this.ctx.storage.sql.exec(
      "INSERT INTO usage (day, tokens) VALUES (?, ?) ON CONFLICT(day) DO UPDATE SET tokens = excluded.tokens",
      day,
      total,
    );
    if (this.totals.size > 2) {
      for (const d of this.totals.keys()) if (d !== day) this.totals.delete(d);
      this.ctx.storage.sql.exec("DELETE FROM usage WHERE day < ?", utcDay(Date.now() - DAYS_KEPT * 86_400_000));
    }
    return total;
  }
}

export function siteLedger(env: Env, siteKey: string) {
  return env.SITE_LEDGER.get(env.SITE_LEDGER.idFromName(siteKey));
}
