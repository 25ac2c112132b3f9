import type { ToolInput } from "../../../shared/tools/tool.ts";
import type { sampleSize } from "../../../shared/tools/sample-size.ts";

export interface SampleSizeResult {
  n_group1: number;
  n_group2: number;
  n_total: number;
  /** Enrolment target once the expected dropout is allowed for. */
  n_total_with_dropout: number;
  method: string;
}

/**
 * Standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9), enough
 * for z-values of sample-size formulas.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError("p must be in (0, 1)");
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    );
  }
  if (p > 1 - lo) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
}

/**
 * Means: n1 = (1 + 1/k)(z_{1-a/2} + z_{1-b})^2 / d^2. Proportions (without continuity correction):
 * n1 = [z_{1-a/2} sqrt(pbar qbar (1 + 1/k)) + z_{1-b} sqrt(p1 q1 + p2 q2 / k)]^2 / (p1 - p2)^2,
 * pbar = (p1 + k p2) / (1 + k). n2 = k n1; each rounded up; dropout inflates the total by 1/(1 - dropout).
 */
export function computeSampleSize(input: ToolInput<typeof sampleSize>): SampleSizeResult {
  const { alpha, power, allocation_ratio: k, dropout } = input;
  const za = normalQuantile(1 - alpha / 2);
  const zb = normalQuantile(power);
  let n1: number;
  let method: string;
  if (input.outcome === "means") {
    const d =
      input.effect_size ??
      (input.mean_difference !== undefined && input.sd ? Math.abs(input.mean_difference) / input.sd : undefined);
    if (!d) throw new Error("means: give effect_size, or mean_difference and sd");
    n1 = ((1 + 1 / k) * (za + zb) ** 2) / d ** 2;
    method = `two means, d = ${round(d)}, normal approximation`;
  } else {
    const { p1, p2 } = input;
    if (p1 === undefined || p2 === undefined || p1 === p2) throw new Error("proportions: give two different p1 and p2");
    const pbar = (p1 + k * p2) / (1 + k);
    const num = za * Math.sqrt(pbar * (1 - pbar) * (1 + 1 / k)) + zb * Math.sqrt(p1 * (1 - p1) + (p2 * (1 - p2)) / k);
    n1 = num ** 2 / (p1 - p2) ** 2;
    method = `two proportions, ${p1} vs ${p2}, normal approximation without continuity correction`;
  }
  // Tiny floating-point excess (62.0000001) must not add a participant.
  const g1 = Math.ceil(n1 - 1e-9);
  const g2 = Math.ceil(k * n1 - 1e-9);
  const total = g1 + g2;
  return {
    n_group1: g1,
    n_group2: g2,
    n_total: total,
    n_total_with_dropout: Math.ceil(total / (1 - dropout) - 1e-9),
    method: `${method}, alpha ${alpha} two-sided, power ${power}, ratio ${k}`,
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
