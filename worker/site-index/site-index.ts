import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env.ts";
import { ConsoleSessions } from "./console-sessions.ts";

/**
 * One per site: the owner's side of the site, in SQLite. It holds the console's signed-in sessions
 * (so sign-out revokes a cookie at once, everywhere: a Durable Object reads its own writes, where
 * KV may serve an old value for up to a minute).
 */
export class SiteIndex extends DurableObject<Env> {
  private readonly consoleSessions: ConsoleSessions;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.consoleSessions = new ConsoleSessions(ctx.storage.sql);
  }

  async openConsoleSession(id: string, expiresAt: number): Promise<void> {
    this.consoleSessions.open(id, expiresAt, Date.now());
  }

  async consoleSessionAlive(id: string): Promise<boolean> {
    return this.consoleSessions.alive(id, Date.now());
  }

  async closeConsoleSession(id: string): Promise<void> {
    this.consoleSessions.close(id);
  }
}

export function siteIndex(env: Env, siteKey: string) {
  return env.SITE_INDEX.get(env.SITE_INDEX.idFromName(siteKey));
}
