/**
 * How long a receiver's `Retry-After` asks to wait, in ms from `now`: delta-seconds or an HTTP date
 * (RFC 9110 §10.2.3; a date already past is 0). Null when absent or neither form, so a header the
 * worker cannot read leaves the schedule alone. A date must start with its day's name, as all three
 * HTTP date forms do: `Date.parse` alone would read "1.5" or "2099-01-01" as dates.
 */
export function retryAfterMs(value: string | null, now: number): number | null {
  const v = value?.trim() ?? "";
  if (/^\d{1,12}$/.test(v)) return Number(v) * 1000;
  if (/^\d+$/.test(v)) return Infinity;
  if (!/^[A-Za-z]{3,9},? /.test(v)) return null;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}
