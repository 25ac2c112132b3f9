const S = 1000;
const M = 60 * S;
const H = 60 * M;

/**
 * When each attempt of a delivery is due, counted from its first: quickly at first (a receiver that
 * blinked), then further apart, the last at 24 h; after it fails too the delivery is marked failed.
 * `scale` shrinks the whole schedule (tests run 24 h in about 2 s).
 */
export const ATTEMPT_OFFSETS_MS = [0, 5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 16 * H, 24 * H] as const;
const LAST_STEP = ATTEMPT_OFFSETS_MS.length - 1;

/** The attempt after a failed one: when it is due, and the step of the schedule it stands for. */
export interface NextAttempt {
  at: number;
  step: number;
}

/**
 * The attempt after a failed one made at schedule step `step`, or null when none is left. It is never
 * due before the failed one ended, so a slow receiver is not hit back to back. A receiver's Retry-After
 * (`retryAfterMs`, scaled as the schedule is) moves it later, never sooner than the schedule's next
 * step, and the schedule goes on from the first step after it: the steps before are spent, so the
 * attempts after it keep the schedule's spacing instead of following one another at once. A
 * Retry-After that ends after the schedule's last step leaves no attempt the receiver would accept
 * within the 24 h: null.
 */
export function nextAttempt(
  d: { firstAt: number; step: number },
  endedAt: number,
  retryAfterMs: number | null,
  scale: number,
): NextAttempt | null {
  const stepAt = (i: number) => d.firstAt + Math.round(ATTEMPT_OFFSETS_MS[i]! * scale);
  const next = d.step + 1;
  if (next > LAST_STEP) return null;
  if (retryAfterMs === null) return { at: Math.max(stepAt(next), endedAt), step: next };
  const asked = endedAt + Math.round(retryAfterMs * scale);
  if (asked > stepAt(LAST_STEP)) return null;
  const at = Math.max(stepAt(next), asked);
  let step = next;
  while (step < LAST_STEP && stepAt(step + 1) <= at) step++;
  return { at, step };
}

/** Timeouts, 429 and 5xx are worth another try; any other answer is the receiver's final word. */
export function retryable(status: number | null): boolean {
  return status === null || status === 429 || status >= 500;
}
