import type { Env } from "../env.ts";

/**
 * A worker secret a site's config names (`wrangler secret put CALCOM_API_KEY`): its value, or undefined
 * when it is not set. The config holds the name only; the value never leaves the worker but for the
 * service it is the key of.
 */
export function namedSecret(env: Env, name: string): string | undefined {
  const value = (env as unknown as Record<string, unknown>)[name];
  return typeof value === "string" && value ? value : undefined;
}

export const secretIsSet = (env: Env, name: string) => namedSecret(env, name) !== undefined;
