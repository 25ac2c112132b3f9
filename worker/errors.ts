import { HTTPException } from "hono/http-exception";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { errorBody, type ErrorBody, type ErrorCode } from "../shared/errors.ts";

/** An error that knows its response (hono's HTTPException habit): status, code, message. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Partial<ErrorBody["error"]> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (code: ErrorCode, message: string, extra?: Partial<ErrorBody["error"]>) => new ApiError(400, code, message, extra);

/** The one place that turns any thrown value into the JSON error shape; never a stack trace. */
export function toErrorResponse(err: unknown, c: Context): Response {
  if (err instanceof ApiError) {
    return c.json(errorBody(err.code, err.message, err.extra), err.status, err.headers);
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const malformed = status === 400 && /json/i.test(err.message);
    const code: ErrorCode = malformed ? "invalid_json" : status === 413 ? "payload_too_large" : status === 401 ? "unauthorized" : "bad_request";
    const message = malformed ? "Request body is not valid JSON" : err.message || "Bad request";
    return c.json(errorBody(code, message), status);
  }
  console.error("unhandled error", c.req.method, c.req.path, err instanceof Error ? err.message : String(err));
  return c.json(errorBody("internal", `Internal error while handling ${c.req.method} ${c.req.path}`), 500);
}
