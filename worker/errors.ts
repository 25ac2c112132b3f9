import { HTTPException } from "hono/http-exception";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { errorBody, type ErrorBody, type ErrorCode } from "../shared/errors.ts";

/**
 * An error that knows its response (hono's HTTPException, with the JSON error shape's code): the
 * code is chosen where the error is thrown, never read back from its message.
 */
export class ApiError extends HTTPException {
  override name = "ApiError";
  constructor(
    override readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Partial<ErrorBody["error"]> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(status, { message });
  }

  override getResponse(): Response {
    const body = errorBody(this.code, this.message, this.extra);
    return Response.json(body, { status: this.status, headers: this.headers });
  }
}

/** Codes for HTTPExceptions thrown inside hono itself, by status (their messages are not an API). */
const HONO_CODES: Partial<Record<number, ErrorCode>> = {
  401: "unauthorized",
  404: "not_found",
  413: "payload_too_large",
};

/** The one place that turns any thrown value into the JSON error shape; never a stack trace. */
export function toErrorResponse(err: unknown, c: Context): Response {
  if (err instanceof ApiError) {
    return c.json(errorBody(err.code, err.message, err.extra), err.status, err.headers);
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    return c.json(errorBody(HONO_CODES[status] ?? "bad_request", err.message || "Bad request"), status);
  }
  console.error("unhandled error", c.req.method, c.req.path, err instanceof Error ? err.message : String(err));
  return c.json(errorBody("internal", `Internal error while handling ${c.req.method} ${c.req.path}`), 500);
}
