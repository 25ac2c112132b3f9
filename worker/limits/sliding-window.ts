/**
 * A sliding-window log: at most `limit` accepted hits in any `windowMs`. Refused hits are not
 * logged, so a client that keeps hammering gets in again as soon as the window has room. Memory is
 * bounded by `limit` timestamps.
 */
export class SlidingWindow {
  private hits: number[] = [];

  /** Records a hit when there is room; otherwise the ms until there will be. */
  hit(limit: number, windowMs: number, now: number): { ok: true } | { ok: false; retryAfterMs: number } {
    const from = now - windowMs;
    let drop = 0;
    while (drop < this.hits.length && this.hits[drop] <= from) drop++;
    if (drop) this.hits = this.hits.slice(drop);
    if (this.hits.length >= limit) {
      // The oldest hits that must leave the window before one more fits.
      const oldest = this.hits[this.hits.length - limit];
      return { ok: false, retryAfterMs: Math.max(1, oldest + windowMs - now) };
    }
    this.hits.push(now);
    return { ok: true };
  }
}
