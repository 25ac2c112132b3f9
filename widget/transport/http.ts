import { retryAfterMs } from "../../shared/wire/retry-after.ts";
import { HttpError, NetworkError, ProtocolError, TimeoutError, isAbortError } from "./errors.ts";

/** JSON over fetch with the typed errors of errors.ts. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Whole seconds to wait, at least 1, for the visitor's "try again in n s". */
function retryAfterSeconds(header: string | null): number | undefined {
  const ms = retryAfterMs(header);
  return ms === undefined ? undefined : Math.max(1, Math.ceil(ms / 1000));
}

const methodOf = (opts: RequestOptions) => opts.method ?? (opts.body === undefined ? "GET" : "POST");

export interface RequestOptions {
  method?: string;
  body?: unknown;
  token?: string;
  signal?: AbortSignal;
  /** Time allowed until the response headers arrive; a stream's body is not limited by it. */
  timeoutMs?: number;
  fetch?: FetchLike;
}

/** Sends the request and returns the Response once it is known to be 2xx; throws the typed errors otherwise. */
export async function request(url: string, opts: RequestOptions = {}): Promise<Response> {
  const method = methodOf(opts);
  const headers: Record<string, string> = {};
  // A Blob (a photo upload) goes as its bytes; anything else as JSON.
  const blob = opts.body instanceof Blob;
  if (opts.body !== undefined) headers["content-type"] = blob ? (opts.body as Blob).type : "application/json";
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const ctrl = new AbortController();
  const onAbort = () => ctrl.abort(opts.signal?.reason);
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctrl.abort();
  }, opts.timeoutMs ?? 30_000);
  let res: Response;
  try {
    res = await (opts.fetch ?? globalThis.fetch)(url, {
      method,
      headers,
      body: opts.body === undefined ? undefined : blob ? (opts.body as Blob) : JSON.stringify(opts.body),
      signal: ctrl.signal,
    });
  } catch (e) {
    if (timedOut) throw new TimeoutError(`Request timed out: ${method} ${url}`);
    if (isAbortError(e)) throw e;
    throw new NetworkError(`Network error: ${method} ${url}: ${(e as Error)?.message ?? e}`);
  } finally {
    clearTimeout(timer);
  }
  // Aborting the caller's signal later must still reach the body stream.
  if (!res.ok) {
    opts.signal?.removeEventListener("abort", onAbort);
    let code = "http_" + res.status;
    let message = `${method} ${url} failed with ${res.status}`;
    let detail;
    try {
      const body = (await res.json()) as { error?: { code?: unknown; message?: unknown } } | null;
      if (typeof body?.error?.code === "string") code = body.error.code;
      if (typeof body?.error?.message === "string") message = body.error.message;
      detail = body?.error as HttpError["detail"];
    } catch {
      /* not JSON: keep the status-based code */
    }
    throw new HttpError(res.status, code, message, retryAfterSeconds(res.headers.get("retry-after")), detail);
  }
  return res;
}

/**
 * A JSON response, checked where it enters: `check` returns the value as the route promises it, or
 * null when the body is of another shape (a ProtocolError, not a cast that fails later).
 */
export async function requestJson<T>(
  url: string,
  check: (body: unknown) => T | null,
  opts: RequestOptions = {},
): Promise<T> {
  const res = await request(url, opts);
  const body: unknown = await res.json().catch(() => undefined);
  const value = check(body);
  if (value === null) throw new ProtocolError("bad_response", `Unexpected answer from ${url}`);
  return value;
}
