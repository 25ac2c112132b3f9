import type { z } from "zod/mini";
import type { StoredAgent } from "../../shared/wire/admin-answers.ts";
import { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { IsolateCache } from "../isolate-cache.ts";
import { draftAgentKey, siteAgentKey } from "./config-keys.ts";

/**
 * Configuration lives in KV (`site:<key>`, `agent:<id>`); in demo mode only, the demo's presets
 * answer for keys KV lacks, so a local run works with an empty namespace. Values are validated on
 * load — a broken config is an error naming the field — and cached per isolate briefly, keeping KV
 * off the chat hot path. Cache keys carry the mode: a preset never answers outside demo mode.
 */
/** How long an isolate serves what it read: the bound on a written config taking effect everywhere. */
export const CONFIG_CACHE_MS = 30_000;
const cache = new IsolateCache<unknown>(CONFIG_CACHE_MS);

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

export { draftAgentKey, siteAgentKey } from "./config-keys.ts";

/** The agent's draft, uncached (the console's editor), or null when none is saved. */
export function readDraftAgent(env: Env, siteKey: string, agentId: string): Promise<AgentConfig | null> {
  return read(env, draftAgentKey(siteKey, agentId), AgentConfig, null);
}

/** The site's agent, uncached, and where it came from (the console shows it). */
export async function readSiteAgent(env: Env, siteKey: string, agentId: string): Promise<StoredAgent | null> {
  // Both reads at once: one round trip on a cache miss, whichever entry exists.
  const [own, shared] = await Promise.all([
    read(env, siteAgentKey(siteKey, agentId), AgentConfig, null),
    read(env, `agent:${agentId}`, AgentConfig, null),
  ]);
  if (own) return { agent: own, source: "site" };
  if (shared) return { agent: shared, source: "shared" };
  const preset = env.demo?.agent(agentId);
  return preset ? { agent: AgentConfig.parse(preset), source: "preset" } : null;
}

/** The agent a site's sessions run: the site's own entry, else the shared one, else (demo mode) the preset. */
/** The site as stored now, past the cache: what a write starts from, so it never undoes a recent one. */
export async function readSiteFresh(env: Env, siteKey: string): Promise<SiteConfig | null> {
  return read(env, `site:${siteKey}`, SiteConfig, env.demo?.site(siteKey));
}

export function loadAgent(env: Env, siteKey: string, agentId: string): Promise<AgentConfig | null> {
  const key = siteAgentKey(siteKey, agentId);
  return cache.through(env.demo ? `demo:${key}` : key, async () => {
    return (await readSiteAgent(env, siteKey, agentId))?.agent ?? null;
  }) as Promise<AgentConfig | null>;
}

/** The agent a session runs: its draft when the session was opened to try the draft (console), else the live one. */
export function loadSessionAgent(
  env: Env,
  claims: { site: string; agent: string; draft?: boolean },
): Promise<AgentConfig | null> {
  if (!claims.draft) return loadAgent(env, claims.site, claims.agent);
  return load(env, draftAgentKey(claims.site, claims.agent), AgentConfig, null);
}

/** Whether a site configured in KV allows this origin (`origin:<origin>`, written with the site). */
export function originInConfig(env: Env, origin: string): Promise<boolean> {
  return cache.through(
    `origin:${origin}`,
    async () => (await env.CONFIG.get(`origin:${origin}`)) !== null,
  ) as Promise<boolean>;
}

/**
 * Forget what this isolate cached for these KV keys, after the owner wrote them: the isolate that
 * served the write answers with the new value at once, the others within CONFIG_CACHE_MS.
 */
export function forgetConfig(...keys: string[]): void {
  for (const key of keys) {
    cache.delete(key);
    cache.delete(`demo:${key}`);
  }
}

/** Forget cached config (tests write KV and read it back at once). */
export function clearConfigCache(): void {
  cache.clear();
}
