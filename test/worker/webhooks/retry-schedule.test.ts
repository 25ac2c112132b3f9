import { describe, expect, it } from "vitest";
import { retryAfterMs } from "../../../worker/webhooks/retry-after.ts";
import { nextAttempt } from "../../../worker/webhooks/retry-schedule.ts";

const S = 1000;
const M = 60 * S;
const H = 60 * M;

describe("the retry schedule with a receiver's Retry-After", () => {
  it("keeps the schedule's next step when the receiver asks for less, or for nothing", () => {
    expect(nextAttempt({ firstAt: 0, step: 2 }, 5 * M + S, null, 1)).toEqual({ at: 30 * M, step: 3 });
    expect(nextAttempt({ firstAt: 0, step: 2 }, 5 * M + S, 60 * S, 1)).toEqual({ at: 30 * M, step: 3 });
    // Never before the failed attempt ended.
    expect(nextAttempt({ firstAt: 0, step: 0 }, 12 * S, null, 1)).toEqual({ at: 12 * S, step: 1 });
  });

  it("waits as long as asked, and the steps that wait passed over are spent", () => {
    expect(nextAttempt({ firstAt: 0, step: 1 }, 5 * S, 3 * H, 1)).toEqual({ at: 3 * H + 5 * S, step: 4 });
    expect(nextAttempt({ firstAt: 0, step: 4 }, 3 * H + 5 * S, null, 1)).toEqual({ at: 5 * H, step: 5 });
    // An attempt its conversation's earlier events held back past later steps: they are spent too.
    expect(nextAttempt({ firstAt: 0, step: 1 }, 3 * H, M, 1)).toEqual({ at: 3 * H + M, step: 4 });
    // Scaled as the schedule is.
    expect(nextAttempt({ firstAt: 100, step: 0 }, 100, 3 * H, 0.001)).toEqual({ at: 100 + 10_800, step: 4 });
  });

  it("leaves no attempt when the wait ends after the last step, and none after the last step", () => {
    expect(nextAttempt({ firstAt: 0, step: 1 }, 5 * S, 24 * H, 1)).toBeNull();
    expect(nextAttempt({ firstAt: 0, step: 1 }, 5 * S, 24 * H - 5 * S, 1)).toEqual({ at: 24 * H, step: 8 });
    expect(nextAttempt({ firstAt: 0, step: 8 }, 24 * H, null, 1)).toBeNull();
    expect(nextAttempt({ firstAt: 0, step: 1 }, 5 * S, Infinity, 1)).toBeNull();
  });
});

describe("reading Retry-After", () => {
  const now = Date.parse("2026-11-27T12:00:00Z");
  it("reads delta-seconds and the three HTTP date forms", () => {
    expect(retryAfterMs("120", now)).toBe(120_000);
    expect(retryAfterMs(" 0 ", now)).toBe(0);
    expect(retryAfterMs("Fri, 27 Nov 2026 12:02:00 GMT", now)).toBe(120_000);
    expect(retryAfterMs("Friday, 27-Nov-26 12:02:00 GMT", now)).toBe(120_000);
    expect(retryAfterMs("Fri Nov 27 12:02:00 2026", now)).not.toBeNull();
    expect(retryAfterMs("Fri, 27 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("99999999999999999999", now)).toBe(Infinity);
  });

  it("ignores what is neither form", () => {
    for (const v of [null, "", "soon", "1.5", "-5", "2099-01-01", "Fri, garbage"])
      expect(retryAfterMs(v, now)).toBeNull();
  });
});
