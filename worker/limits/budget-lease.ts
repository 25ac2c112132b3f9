/**
 * A slice of a site's daily budget is a fiftieth of it, at least four times what the turn reserves
 * and twice what the isolate's running turns hold.
 */
export const BUDGET_SLICE_FRACTION = 0.02;

export interface BudgetGrant {
  granted: number;
}
/** What an isolate tells the site's ledger when it asks for more: tokens spent, and spent beyond its slices. */
export interface BudgetReport {
  used: number;
  overdraft: number;
}
export type BudgetAsk = (
  siteKey: string,
  day: string,
  budget: number,
  want: number,
  report: BudgetReport,
) => Promise<BudgetGrant>;

interface Slice {
  day: string;
  budget: number;
  /** Granted tokens not yet reserved by a turn; below 0 when turns spent more than they reserved. */
  left: number;
  /** Spent since the ledger was last told. */
  unreported: number;
  /** Reserved by turns still running here: a busy isolate asks for slices that hold them twice over. */
  inFlight: number;
  /** The ledger gave less than asked: the day's budget (at this size) is all granted, ask no more. */
  exhausted?: number;
  refilling?: Promise<void>;
}

export interface Reservation {
  /** Gives back what the turn did not spend (or takes what it spent beyond its reservation). */
  settle(tokens: number): void;
}

/**
 * An isolate's slices of sites' daily token budgets. The SiteLedger grants a slice only from what
 * is left of the day's budget and counts it as charged at once; a turn reserves the most it can
 * cost (its max_tokens cap plus its request's bytes: no byte-level tokenizer counts more tokens than
 * bytes) from the slice here, without a Durable Object call, and gives back the rest when its usage
 * is known. The slice is refilled in the background once it runs below half; spending is reported
 * with the refill. So the sum of all slices never exceeds the budget, and a site overshoots it only
 * by tokens a turn spent beyond its reservation (none when the provider counts as above). The
 * price is the other way: tokens held in slices (at most one slice per isolate) are refused to
 * other isolates until the day ends.
 */
export class BudgetLeases {
  private readonly slices = new Map<string, Slice>();

  constructor(
    private readonly ask: BudgetAsk,
    private readonly maxSites = 1_000,
  ) {}

  static sliceFor(budget: number, reserve: number, inFlight = 0): number {
    return Math.max(Math.ceil(budget * BUDGET_SLICE_FRACTION), reserve * 4, inFlight * 2);
  }

  /** Reserves `reserve` tokens of the site's day, or null when the day's budget cannot hold them. */
  async reserve(
    siteKey: string,
    day: string,
    budget: number,
    reserve: number,
    background: (p: Promise<unknown>) => void,
  ): Promise<Reservation | null> {
    let slice = this.slices.get(siteKey);
    if (slice) slice.budget = budget;
    if (!slice || slice.day !== day) {
      if (slice) background(this.report(siteKey, slice));
      if (!slice && this.slices.size >= this.maxSites) this.slices.clear();
      slice = { day, budget, left: 0, unreported: 0, inFlight: 0 };
      this.slices.set(siteKey, slice);
    }
    if (slice.left < reserve) {
      // Too little held here: wait for the ledger (a refill already running first).
      if (slice.refilling) await slice.refilling;
      if (slice.left < reserve && slice.exhausted !== budget)
        await this.refill(siteKey, slice, budget, BudgetLeases.sliceFor(budget, reserve, slice.inFlight));
      if (slice.left < reserve) return null;
    }
    slice.left -= reserve;
    slice.inFlight += reserve;
    const want = BudgetLeases.sliceFor(budget, reserve, slice.inFlight);
    if (!slice.refilling && slice.exhausted !== budget && slice.left < want / 2)
      background(this.refill(siteKey, slice, budget, want));
    const held = slice;
    let settled = false;
    return {
      settle(tokens: number) {
        if (settled) return;
        settled = true;
        const spent = Math.max(0, Math.round(tokens));
        held.left += reserve - spent;
        held.inFlight -= reserve;
        held.unreported += spent;
      },
    };
  }

  private refill(siteKey: string, slice: Slice, budget: number, want: number): Promise<void> {
    if (slice.refilling) return slice.refilling;
    const overdraft = Math.max(0, -slice.left);
    const report = { used: slice.unreported, overdraft };
    slice.left += overdraft;
    slice.unreported = 0;
    const asked = Math.max(0, want - slice.left);
    slice.refilling = this.ask(siteKey, slice.day, budget, asked, report)
      .then(
        (g) => {
          slice.left += g.granted;
          if (g.granted < asked) slice.exhausted = budget;
        },
        () => {
          // Not told: tell again with the next refill.
          slice.unreported += report.used;
          slice.left -= report.overdraft;
        },
      )
      .finally(() => (slice.refilling = undefined));
    return slice.refilling;
  }

  /** Reports a finished day's spending (nothing more is asked of it). */
  private report(siteKey: string, slice: Slice): Promise<void> {
    const overdraft = Math.max(0, -slice.left);
    if (!slice.unreported && !overdraft) return Promise.resolve();
    return this.ask(siteKey, slice.day, slice.budget, 0, { used: slice.unreported, overdraft }).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Tokens held for the site (tests). */
  held(siteKey: string): number {
    return this.slices.get(siteKey)?.left ?? 0;
  }

  /** Reports every slice's spending now (tests; a worker reports with its refills). */
  async flush(): Promise<void> {
    await Promise.all(
      [...this.slices].map(async ([siteKey, slice]) => {
        await slice.refilling;
        await this.refill(siteKey, slice, slice.budget, 0);
      }),
    );
  }

  clear(): void {
    this.slices.clear();
  }
}
