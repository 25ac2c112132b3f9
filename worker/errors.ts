import { HTTPException } from "hono/http-exception";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { errorBody, type ErrorBody, type ErrorCode } from "../shared/wire/errors.ts";
import type { LocalizedText } from "../shared/config/localized-text.ts";
import { localize } from "../shared/config/localize.ts";

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

/**
 * A failure whose own words are for the site's owner only: a model provider's error text can quote
 * a key, an organisation or an account's limits. Its message, and what any route answers with it, is
 * the generic `text` (English until a visitor's language is known, see `forVisitor`); `ownerText`,
 * already redacted of anything key-like, goes only where the owner reads (the trace's owner notes).
 */
export class ProviderError extends ApiError {
  override name = "ProviderError";
  constructor(
    status: ContentfulStatusCode,
    code: ErrorCode,
    readonly text: LocalizedText,
    readonly ownerText: string,
    extra: Partial<ErrorBody["error"]> = {},
    headers: Record<string, string> = {},
  ) {
    super(status, code, text.en, extra, headers);
  }

  /** The same failure as a visitor reads it: the generic text in their language, the same code and status. */
  forVisitor(locale: string): ApiError {
    return new ApiError(this.status, this.code, localize(this.text, locale), this.extra, this.headers);
  }
}

/**
 * The one shape of a refused body: `validation_failed` with each issue at its field's path
 * (`allowedOrigins.2`, `stages.0.fields.1.kind`), so a form shows it beside that field.
 */
export function validationFailed(list: Array<{ path: readonly string[]; message: string }>): ApiError {
  const issues = list.slice(0, 20).map((i) => ({ path: i.path.join(".") || "(body)", message: i.message }));
  const first = issues[0];
  return new ApiError(400, "validation_failed", `Invalid request body: ${first.path}: ${first.message}`, { issues });
}

export const isProviderError = (e: unknown): e is ProviderError =>
  e instanceof ProviderError || (e as Error | null)?.name === "ProviderError";

/** What the owner reads of a failure (a desk run, a trace note): a provider's own words where there are some. */
export function ownerMessage(err: unknown): string {
  if (isProviderError(err)) return err.ownerText;
  return err instanceof Error ? err.message : String(err);
}

/** Codes for HTTPExceptions thrown inside hono itself, by status (their messages are not an API). */
const HONO_CODES: Partial<Record<number, ErrorCode>> = {
  401: "unauthorized",
  404: "not_found",
  413: "payload_too_large",
};

/** The one place that turns any thrown value into the JSON error shape; never a stack trace. */
export function toErrorResponse(err: unknown, c: Context): Response {
  // Any route that lets a provider's failure through answers its generic text, in the request's language.
  if (isProviderError(err)) err = err.forVisitor(c.req.header("accept-language") ?? "en");
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
