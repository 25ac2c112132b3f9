/**
 * A `Retry-After` header (RFC 9110: delay in seconds, or an HTTP date) as milliseconds from `now`;
 * undefined when absent or unreadable. The worker reads providers' headers with it, the widget the
 * proxy's.
 */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its day and month; V8's Date.parse would also read "-1" as a year.
  const at = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
