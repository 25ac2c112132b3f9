import type { ErrorCode } from "../../shared/errors.ts";
import { ApiError } from "../errors.ts";

const STATUS = { not_found: 404, validation_failed: 400, conflict: 409 } as const;

/**
 * Awaits a registry call and turns its refusals (RegistryError, which reaches the caller as an
 * Error whose message starts with its code) into the API's error shape; anything else is the
 * store failing, a 503 that names the registry, never a stack trace.
 */
export async function registryCall<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const match = /^(not_found|validation_failed|conflict): ([\s\S]*)$/.exec(message);
    if (match) {
      const code = match[1] as keyof typeof STATUS;
      throw new ApiError(STATUS[code], code as ErrorCode, match[2]);
    }
    if (err instanceof ApiError) throw err;
    throw new ApiError(503, "upstream_unreachable", `The prompt registry could not be read: ${message.slice(0, 200)}`);
  }
}
