import type { Jurisdiction } from "../../shared/config/agent-config.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { jurisdictionOf } from "./jurisdiction.ts";

/** The binding of each jurisdiction's photo bucket (an R2 bucket created in that jurisdiction: wrangler.toml). */
export const PHOTO_BUCKETS = { eu: "PHOTOS_EU", fedramp: "PHOTOS_FEDRAMP" } as const satisfies Record<
  Jurisdiction,
  keyof Env
>;

/**
 * Where a conversation's photos are kept: its jurisdiction's bucket (read from the conversation's id),
 * or PHOTOS. Null when the jurisdiction's bucket is not bound: then no photo of it can have been stored.
 */
export function photoBucket(env: Env, sessionId: string): R2Bucket | null {
  const jurisdiction = jurisdictionOf(sessionId);
  return jurisdiction ? (env[PHOTO_BUCKETS[jurisdiction]] ?? null) : env.PHOTOS;
}

/** The same, for a write or a read: a missing bucket is the deployment's fault (503), never a fallback to PHOTOS. */
export function requirePhotoBucket(env: Env, sessionId: string): R2Bucket {
  const bucket = photoBucket(env, sessionId);
  if (bucket) return bucket;
  const binding = PHOTO_BUCKETS[jurisdictionOf(sessionId)!];
  throw new ApiError(503, "misconfigured", `Photos of this site's jurisdiction need the ${binding} bucket binding`);
}
