import { validator } from "hono/validator";
import type { z } from "zod/mini";
import { ApiError } from "../errors.ts";

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * JSON body validation with one zod schema: a body that is not JSON is `invalid_json`, decided
 * here where it is parsed (hono's validator then reads the same parsed body from its cache), and a
 * schema failure is `validation_failed` with each issue's path.
 */
export function jsonBody<T extends z.ZodMiniType>(schema: T) {
  const validate = validator("json", (value): z.output<T> => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data as z.output<T>;
    throw validationFailed(parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })));
  });
  const jsonBodyMiddleware: typeof validate = async (c, next) => {
    if (!JSON_TYPE.test(c.req.header("content-type") ?? "")) {
      throw new ApiError(415, "bad_request", "Content-Type must be application/json");
    }
    try {
      await c.req.json();
    } catch {
      throw new ApiError(400, "invalid_json", "Request body is not valid JSON");
    }
    return validate(c, next);
  };
  return jsonBodyMiddleware;
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
