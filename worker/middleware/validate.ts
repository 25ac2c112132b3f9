import { validator } from "hono/validator";
import type { z } from "zod/mini";
import { ApiError } from "../errors.ts";

/**
 * JSON body validation with one zod schema. Malformed JSON is rejected by hono's validator
 * (mapped to `invalid_json`); a schema failure is `validation_failed` with each issue's path.
 */
export function jsonBody<T extends z.ZodMiniType>(schema: T) {
  return validator("json", (value, c): z.output<T> => {
    if (!/^application\/([\w.-]+\+)?json\b/i.test(c.req.header("content-type") ?? "")) {
      throw new ApiError(415, "bad_request", "Content-Type must be application/json");
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data as z.output<T>;
    const issues = parsed.error.issues.slice(0, 20).map((i) => ({ path: i.path.join(".") || "(body)", message: i.message }));
    const first = issues[0];
    throw new ApiError(400, "validation_failed", `Invalid request body: ${first.path}: ${first.message}`, { issues });
  });
}
