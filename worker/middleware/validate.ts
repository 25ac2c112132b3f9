import { validator } from "hono/validator";
import type { z } from "zod/mini";
import { ApiError, validationFailed } from "../errors.ts";
import { withContract } from "./contract.ts";

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/** What hono's validator would answer: it gives the route `c.req.valid("json")` its type. */
const typed = <T extends z.ZodMiniType>() => validator("json", (value) => value as z.output<T>);

/**
 * JSON body validation with one zod schema: a body that is not JSON is `invalid_json`, a schema
 * failure is `validation_failed` with each issue's path. The validated body is handed to the route
 * as hono's validator hands it (`c.req.valid("json")`), without its second look at the header and
 * the body: this runs on every chat request.
 */
export function jsonBody<T extends z.ZodMiniType>(schema: T) {
  const jsonBodyMiddleware: ReturnType<typeof typed<T>> = async (c, next) => {
    if (!JSON_TYPE.test(c.req.header("content-type") ?? "")) {
      throw new ApiError(415, "bad_request", "Content-Type must be application/json");
    }
    let value: unknown;
    try {
      value = await c.req.json();
    } catch {
      throw new ApiError(400, "invalid_json", "Request body is not valid JSON");
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success)
      throw validationFailed(parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })));
    c.req.addValidatedData("json", parsed.data as object);
    await next();
  };
  return withContract(jsonBodyMiddleware, { body: schema, errors: BODY_ERRORS });
}

const BODY_ERRORS = [
  [400, "invalid_json"],
  [400, "validation_failed"],
  [415, "bad_request"],
] as const;
