import { ApiError } from "../errors.ts";
import type { RegistryCode } from "./registry-types.ts";

const STATUS: Record<RegistryCode, 404 | 400 | 409> = { not_found: 404, validation_failed: 400, conflict: 409 };

/**
 * A RegistryError that crossed the Durable Object boundary: checked by name and by its `code`
 * property (an instance of the class does not survive the trip), never by its message.
 */
function refusalCode(err: unknown): RegistryCode | null {
  if (!(err instanceof Error) || err.name !== "RegistryError") return null;
  const code = (err as { code?: unknown }).code;
  return typeof code === "string" && Object.hasOwn(STATUS, code) ? (code as RegistryCode) : null;
}

/**
 * Awaits a registry call and turns its refusals into the API's error shape; anything else is
 * the store failing, a 503 that names the registry, never a stack trace.
 */
export async function registryCall<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const code = refusalCode(err);
    if (code) throw new ApiError(STATUS[code], code, message);
    if (err instanceof ApiError) throw err;
    throw new ApiError(503, "upstream_unreachable", `The prompt registry could not be read: ${message.slice(0, 200)}`);
  }
}
