import { outboundRefusal, type OutboundPolicy } from "../net/resolved-address.ts";
import { retryAfterMs } from "./retry-after.ts";
import { webhookHeaders } from "./sign.ts";

/** One attempt's outcome, as the Webhooks page shows it. */
export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  body: string | null;
  ms: number;
  /** The wait a refusing receiver asked for (its Retry-After, in ms), or null. */
  retryAfterMs: number | null;
}

const BODY_KEPT = 1024;

/**
 * One signed POST to an endpoint, with a deadline. The URL and its name's DNS answer are checked here
 * (a stored endpoint is not trusted to have passed in this mode) and redirects are not followed: a 3xx is the answer,
 * so a receiver cannot send the worker on to an address it would refuse.
 */
export async function attemptDelivery(
  target: { url: string; secrets: readonly string[] },
  message: { id: string; body: string },
  opts: { timeoutMs: number; policy: OutboundPolicy },
): Promise<AttemptOutcome> {
  const started = Date.now();
  const refused = await outboundRefusal(target.url, opts.policy);
  if (refused) {
    // No status: retried on the schedule, like a receiver that did not answer (an answer may change).
    const error = refused.code === "forbidden" ? `refused: ${refused.message}` : `dns: ${refused.message}`;
    return { ok: false, status: null, error, body: null, ms: Date.now() - started, retryAfterMs: null };
  }
  const headers = await webhookHeaders(message.id, Math.floor(started / 1000), message.body, target.secrets);
  try {
    const res = await fetch(target.url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "user-agent": "Parley-Webhooks/1" },
      body: message.body,
      redirect: "manual",
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    const body = await readStart(res);
    const ok = res.status >= 200 && res.status < 300;
    const wait = ok ? null : retryAfterMs(res.headers.get("retry-after"), Date.now());
    const error = ok ? null : `HTTP ${res.status}`;
    return { ok, status: res.status, error, body, ms: Date.now() - started, retryAfterMs: wait };
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    const error = timedOut ? `no answer within ${opts.timeoutMs} ms` : `network error: ${String(err).slice(0, 200)}`;
    return { ok: false, status: null, error, body: null, ms: Date.now() - started, retryAfterMs: null };
  }
}

/** The start of the answer; the rest is cancelled, so a receiver streaming without end costs nothing. */
async function readStart(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < BODY_KEPT) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all.subarray(0, BODY_KEPT));
}
