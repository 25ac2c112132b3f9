import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";

export function requireSecret(env: Env): string {
  const secret = env.SESSION_SECRET;
  if (!secret || secret.length < 16) {
    throw new ApiError(
      503,
      "misconfigured",
      "SESSION_SECRET is not set (at least 16 characters): `wrangler secret put SESSION_SECRET`, or .dev.vars locally",
    );
  }
  return secret;
}
