import type { ConsentNotice } from "../../shared/session/consent.ts";

/**
 * The widget's transport errors, one class per kind. Checks go by `name` as well as `instanceof`
 * (habit from ky's type-guards): the widget can live in another frame than the code that catches.
 */

/** The server answered with a non-2xx status; `code` comes from `{ error: { code, message } }`. */
export class HttpError extends Error {
  override name = "HttpError" as const;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds to wait before trying again, from a `Retry-After` header (429, 503). */
    readonly retryAfter?: number,
    /** What else the error body says: the consent notice to show (consent_required, consent_version). */
    readonly detail?: { consent?: ConsentNotice },
  ) {
    super(message);
  }
}

/**
 * The server answered 2xx, but not with what the protocol promises: a body of the wrong shape, a
 * stream that broke off before its end, or a failure reported inside the stream. `code` is the one
 * the visitor's text is chosen by (`upstream_error` when the reply broke off, `bad_response` for a
 * body that is not what the route answers).
 */
export class ProtocolError extends Error {
  override name = "ProtocolError" as const;
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** No answer at all: offline, DNS, CORS refusal, connection reset. */
export class NetworkError extends Error {
  override name = "NetworkError" as const;
}

export class TimeoutError extends Error {
  override name = "TimeoutError" as const;
}

const named = (e: unknown, name: string) => (e as Error | null)?.name === name;
export const isHttpError = (e: unknown): e is HttpError => e instanceof HttpError || named(e, "HttpError");
export const isProtocolError = (e: unknown): e is ProtocolError =>
  e instanceof ProtocolError || named(e, "ProtocolError");
export const isNetworkError = (e: unknown): e is NetworkError => e instanceof NetworkError || named(e, "NetworkError");
export const isTimeoutError = (e: unknown): e is TimeoutError => e instanceof TimeoutError || named(e, "TimeoutError");
export const isAbortError = (e: unknown): boolean => named(e, "AbortError");

/** The code a visitor's error text is chosen by (widget/i18n): the server's, or the widget's own kind. */
export function errorCode(e: unknown): string {
  if (isHttpError(e) || isProtocolError(e)) return e.code;
  if (isTimeoutError(e)) return "timeout";
  if (isNetworkError(e)) return "network";
  return "internal";
}
