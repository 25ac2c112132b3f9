import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env.ts";
import { SlidingWindow } from "./sliding-window.ts";

export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number };
export interface RateGrant {
  count: number;
  retryAfterMs: number;
}

/**
 * One rate-limit key (a client IP on a site: `ip:<site>:<ip>`): requests per minute in a sliding
 * window. The window lives in memory: the object is only evicted after it has been idle, and an
 * idle key's window is empty anyway, so there is nothing worth a storage write per request.
 */
export class RateLimiter extends DurableObject<Env> {
  private readonly window = new SlidingWindow();

  async hit(limit: number, windowMs = 60_000): Promise<RateDecision> {
    return this.window.hit(limit, windowMs, Date.now());
  }

  /** Up to `want` hits for an isolate to spend itself (rate-lease.ts), counted in the window now. */
  async lease(limit: number, want: number, windowMs = 60_000): Promise<RateGrant> {
    return this.window.take(limit, windowMs, Date.now(), want);
  }
}
