/**
 * A sliding-window log: at most `limit` accepted hits in any `windowMs`. Refused hits are not
 * logged, so a client that keeps hammering gets in again as soon as the window has room. Memory is
 * bounded by `limit` timestamps.
 */
export class SlidingWindow {
  private hits: number[] = [];

  /** Records a hit when there is room; otherwise the ms until there will be. */
  hit(limit: number, windowMs: number, now: number): { ok: true } | { ok: false; retryAfterMs: number } {
    const granted = this.take(limit, windowMs, now, 1);
    return granted.count ? { ok: true } : { ok: false, retryAfterMs: granted.retryAfterMs };
  }

  /**
   * Records up to `want` hits at once (an isolate's lease, see rate-lease.ts): as many as there is
   * room for; with none, the ms until one more fits.
   */
  take(limit: number, windowMs: number, now: number, want: number): { count: number; retryAfterMs: number } {
    const from = now - windowMs;
    let drop = 0;
    while (drop < this.hits.length && this.hits[drop] <= from) drop++;
    if (drop) this.hits = this.hits.slice(drop);
    const count = Math.max(0, Math.min(want, limit - this.hits.length));
    for (let i = 0; i < count; i++) this.hits.push(now);
    if (count) return { count, retryAfterMs: 0 };
    // The oldest hits that must leave the window before one more fits.
    const oldest = this.hits[this.hits.length - limit];
    return { count: 0, retryAfterMs: Math.max(1, oldest + windowMs - now) };
  }
}
