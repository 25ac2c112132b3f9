const S = 1000;
const M = 60 * S;
const H = 60 * M;

/**
 * When each attempt of a delivery is due, counted from its first: quickly at first (a receiver that
 * blinked), then further apart, the last at 24 h; after it fails too the delivery is marked failed.
 * `scale` shrinks the whole schedule (tests run 24 h in about 2 s).
 */
export const ATTEMPT_OFFSETS_MS = [0, 5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 16 * H, 24 * H] as const;

/** When the attempt after `attemptsMade` is due, or null when the schedule is spent. */
export function nextAttemptAt(firstAt: number, attemptsMade: number, scale: number): number | null {
  const offset = ATTEMPT_OFFSETS_MS[attemptsMade];
  return offset === undefined ? null : firstAt + Math.round(offset * scale);
}

/** Timeouts, 429 and 5xx are worth another try; any other answer is the receiver's final word. */
export function retryable(status: number | null): boolean {
  return status === null || status === 429 || status >= 500;
}
