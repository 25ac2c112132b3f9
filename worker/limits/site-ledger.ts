import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env.ts";

/** How many sessions a site's index keeps (newest first); older ones drop out of the admin list. */
export const SESSION_INDEX_MAX = 1000;
/** Days of token counters kept. */
const DAYS_KEPT = 31;

export interface IndexedSession {
  sessionId: string;
  agentId: string;
  openedAt: number;
}

/** The UTC day a token is counted in: `2026-11-23`. */
export const utcDay = (now = Date.now()) => new Date(now).toISOString().slice(0, 10);

/**
 * One per site: the site's daily token counters (what the daily budget checks) and a bounded index
 * of its sessions (what a site owner lists). SQLite keeps both across evictions; the day's total is
 * also held in memory, so the budget check on the chat path reads no storage.
 */
export class SiteLedger extends DurableObject<Env> {
  private readonly totals = new Map<string, number>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS usage (day TEXT PRIMARY KEY, tokens INTEGER NOT NULL)");
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS sessions (sid TEXT PRIMARY KEY, agent TEXT NOT NULL, opened INTEGER NOT NULL)",
    );
    ctx.storage.sql.exec("CREATE INDEX IF NOT EXISTS sessions_opened ON sessions (opened)");
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

  async addSession(s: IndexedSession): Promise<void> {
    this.ctx.storage.sql.exec(
      "INSERT OR IGNORE INTO sessions (sid, agent, opened) VALUES (?, ?, ?)",
      s.sessionId,
      s.agentId,
      s.openedAt,
    );
    // Bounded: keep the newest SESSION_INDEX_MAX.
    this.ctx.storage.sql.exec(
      "DELETE FROM sessions WHERE sid IN (SELECT sid FROM sessions ORDER BY opened DESC, sid DESC LIMIT -1 OFFSET ?)",
      SESSION_INDEX_MAX,
    );
  }

  /** Newest first; `before` (an openedAt) pages on. */
  async listSessions(limit: number, before = Number.MAX_SAFE_INTEGER): Promise<IndexedSession[]> {
    return this.ctx.storage.sql
      .exec<{ sid: string; agent: string; opened: number }>(
        "SELECT sid, agent, opened FROM sessions WHERE opened < ? ORDER BY opened DESC, sid DESC LIMIT ?",
        before,
        limit,
      )
      .toArray()
      .map((r) => ({ sessionId: r.sid, agentId: r.agent, openedAt: r.opened }));
  }
}

export function siteLedger(env: Env, siteKey: string) {
  return env.SITE_LEDGER.get(env.SITE_LEDGER.idFromName(siteKey));
}
