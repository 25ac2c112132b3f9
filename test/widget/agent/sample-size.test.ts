import { describe, expect, it } from "vitest";
import { sampleSize } from "../../../shared/tools/sample-size.ts";
import { computeSampleSize, normalQuantile } from "../../../widget/agent/tools/sample-size-math.ts";

const run = (input: Record<string, unknown>) => computeSampleSize(sampleSize.input.parse(input) as never);

describe("sample size", () => {
  it("has accurate normal quantiles", () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.8)).toBeCloseTo(0.841621, 5);
    expect(normalQuantile(0.9)).toBeCloseTo(1.281552, 5);
    expect(normalQuantile(0.005)).toBeCloseTo(-2.575829, 5);
  });

  // Published values (normal approximation): d = 0.5, alpha .05, power .80 -> 63 per group
  // (Cohen 1988 gives 64 with the t correction); d = 0.2 -> 393; d = 0.8 -> 25.
  it.each([
    [0.5, 0.8, 63],
    [0.2, 0.8, 393],
    [0.8, 0.8, 25],
    [0.5, 0.9, 85],
  ])("means: d=%s, power %s -> %s per group", (d, power, n) => {
    expect(run({ outcome: "means", effect_size: d, power }).n_group1).toBe(n);
  });

  it("means from a difference and SD, with unequal allocation and dropout", () => {
    const r = run({ outcome: "means", mean_difference: 5, sd: 10, allocation_ratio: 2, dropout: 0.1 });
    // n1 = (1 + 1/2)(1.96 + 0.8416)^2 / 0.25 = 47.1 -> 48; n2 = 94.2 -> 95.
    expect(r).toMatchObject({ n_group1: 48, n_group2: 95, n_total: 143, n_total_with_dropout: 159 });
  });

  // Tabulated values of the formula without continuity correction: .30 vs .50 -> 93 per group,
  // .10 vs .20 -> 199 per group.
  it.each([
    [0.3, 0.5, 93],
    [0.1, 0.2, 199],
    [0.5, 0.3, 93],
  ])("proportions: %s vs %s -> %s per group", (p1, p2, n) => {
    expect(run({ outcome: "proportions", p1, p2 }).n_group1).toBe(n);
  });

  it("refuses incomplete input with a reason", () => {
    expect(() => run({ outcome: "means" })).toThrow(/effect_size/);
    expect(() => run({ outcome: "proportions", p1: 0.3, p2: 0.3 })).toThrow(/different/);
  });
});
