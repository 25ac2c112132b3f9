import type { RateDecision, RateGrant } from "./rate-limiter.ts";

/** The most hits one isolate holds for a key: a tenth of the limit (at least 1). */
export const RATE_SLICE_FRACTION = 0.1;
export const rateSliceCap = (limit: number) => Math.max(1, Math.floor(limit * RATE_SLICE_FRACTION));

interface Lease {
  left: number;
  /** What the next lease asks for: doubles while the key stays busy here, up to the cap. */
  size: number;
  refilling?: Promise<void>;
}

/**
 * An isolate's slices of rate-limit windows (one per key, e.g. a client IP on a site). A request
 * spends a hit from the slice without a Durable Object call; the slice is refilled in the
 * background (waitUntil) once half of it is spent. The object counts a slice's hits when it grants
 * them, so its window never holds more than `limit`; what one isolate can add beyond the limit in
 * any window is the hits it held unspent when the window began: at most `rateSliceCap(limit)`.
 * Slices start at one hit and double while the key stays busy, so a visitor seen once costs the
 * window one hit, as an unleased count would, and only busy keys are leased ahead.
 */
export class RateLeases {
  private readonly leases = new Map<string, Lease>();

  constructor(
    private readonly ask: (key: string, limit: number, want: number) => Promise<RateGrant>,
    private readonly maxKeys = 10_000,
  ) {}

  async take(key: string, limit: number, background: (p: Promise<unknown>) => void): Promise<RateDecision> {
    let lease = this.leases.get(key);
    if (lease?.refilling && lease.left <= 0) await lease.refilling;
    lease = this.leases.get(key);
    if (lease && lease.left > 0) {
      lease.left--;
      this.refillWhenLow(key, lease, limit, background);
      return { ok: true };
    }
    // Nothing held here: ask the object now, for one hit more than was spent here last time.
    const size = lease ? Math.min(rateSliceCap(limit), lease.size * 2) : 1;
    const grant = await this.ask(key, limit, size);
    if (!grant.count) {
      this.leases.delete(key);
      return { ok: false, retryAfterMs: grant.retryAfterMs };
    }
    if (!this.leases.has(key) && this.leases.size >= this.maxKeys) this.leases.clear();
    const held = this.leases.get(key) ?? { left: 0, size };
    held.left += grant.count - 1;
    held.size = size;
    this.leases.set(key, held);
    return { ok: true };
  }

  private refillWhenLow(key: string, lease: Lease, limit: number, background: (p: Promise<unknown>) => void): void {
    if (lease.refilling || lease.size < 2 || lease.left > lease.size / 2) return;
    const size = Math.min(rateSliceCap(limit), lease.size * 2);
    lease.refilling = this.ask(key, limit, size - lease.left)
      .then(
        (grant) => {
          lease.left += grant.count;
          lease.size = size;
        },
        () => undefined,
      )
      .finally(() => (lease.refilling = undefined));
    background(lease.refilling);
  }

  /** Hits held for `key` (tests). */
  held(key: string): number {
    return this.leases.get(key)?.left ?? 0;
  }

  clear(): void {
    this.leases.clear();
  }
}
