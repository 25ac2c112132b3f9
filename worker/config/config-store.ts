import type { z } from "zod/mini";
import { AgentConfig, SiteConfig } from "../../shared/agent-config.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { IsolateCache } from "../isolate-cache.ts";

/**
 * Configuration lives in KV (`site:<key>`, `agent:<id>`); in demo mode only, the demo's presets
 * answer for keys KV lacks, so a local run works with an empty namespace. Values are validated on
 * load — a broken config is an error naming the field — and cached per isolate briefly, keeping KV
 * off the chat hot path. Cache keys carry the mode: a preset never answers outside demo mode.
 */
const cache = new IsolateCache<unknown>(30_000);

function load<S extends z.ZodMiniType>(env: Env, key: string, schema: S, preset: unknown): Promise<z.output<S> | null> {
  const cacheKey = env.demo ? `demo:${key}` : key;
  return cache.through(cacheKey, () => read(env, key, schema, preset)) as Promise<z.output<S> | null>;
}

async function read<S extends z.ZodMiniType>(
  env: Env,
  key: string,
  schema: S,
  preset: unknown,
): Promise<z.output<S> | null> {
  const raw = await env.CONFIG.get(key, "json").catch(() => {
    throw new ApiError(502, "misconfigured", `Config entry ${key} is not valid JSON`);
  });
  const source = raw ?? preset ?? null;
  let value: z.output<S> | null = null;
  if (source !== null) {
    const parsed = schema.safeParse(source);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ApiError(
        502,
        "misconfigured",
        `Config entry ${key} is invalid at ${issue.path.join(".") || "(root)"}: ${issue.message}`,
      );
    }
    value = parsed.data as z.output<S>;
  }
  return value;
}

export function loadSite(env: Env, siteKey: string) {
  return load(env, `site:${siteKey}`, SiteConfig, env.demo?.site(siteKey));
}

export function loadAgent(env: Env, agentId: string) {
  return load(env, `agent:${agentId}`, AgentConfig, env.demo?.agent(agentId));
}

/** Whether a site configured in KV allows this origin (`origin:<origin>`, written with the site). */
export function originInConfig(env: Env, origin: string): Promise<boolean> {
  return cache.through(
    `origin:${origin}`,
    async () => (await env.CONFIG.get(`origin:${origin}`)) !== null,
  ) as Promise<boolean>;
}

/** Forget cached config (tests write KV and read it back at once). */
export function clearConfigCache(): void {
  cache.clear();
}
