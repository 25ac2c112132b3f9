/**
 * JSON over fetch with typed errors. Checks go by `name` as well as `instanceof` (habit from
 * ky's type-guards): the widget can live in another frame than the code that catches.
 */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface ServerError {
  code: string;
  message: string;
}

/** The server answered with a non-2xx status; `code` comes from `{ error: { code, message } }`. */
export class HttpError extends Error {
  override name = "HttpError" as const;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds to wait before trying again, from a `Retry-After` header (429, 503). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** `Retry-After` is seconds or an HTTP date; either way, whole seconds from now (at least 1). */
function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  const secs = /^\d+$/.test(value.trim()) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Number.isFinite(secs) ? Math.max(1, Math.ceil(secs)) : undefined;
}

/** No answer at all: offline, DNS, CORS refusal, connection reset. */
export class NetworkError extends Error {
  override name = "NetworkError" as const;
}

export class TimeoutError extends Error {
  override name = "TimeoutError" as const;
}

export const isHttpError = (e: unknown): e is HttpError => e instanceof HttpError || (e as Error | null)?.name === "HttpError";
export const isNetworkError = (e: unknown): e is NetworkError =>
  e instanceof NetworkError || (e as Error | null)?.name === "NetworkError";
export const isTimeoutError = (e: unknown): e is TimeoutError =>
  e instanceof TimeoutError || (e as Error | null)?.name === "TimeoutError";
export const isAbortError = (e: unknown): boolean => (e as Error | null)?.name === "AbortError";

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
  const method = opts.method ?? (opts.body === undefined ? "GET" : "POST");
  const headers: Record<string, string> = {};
  if (opts.body !== undefined) headers["content-type"] = "application/json";
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
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
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
    try {
      const body = (await res.json()) as { error?: Partial<ServerError> };
      if (body?.error?.code) code = body.error.code;
      if (body?.error?.message) message = body.error.message;
    } catch {
      /* not JSON: keep the status-based code */
    }
    throw new HttpError(res.status, code, message, retryAfterSeconds(res.headers.get("retry-after")));
  }
  return res;
}

export async function requestJson<T>(url: string, opts: RequestOptions = {}): Promise<T> {
  const res = await request(url, opts);
  return (await res.json()) as T;
}
