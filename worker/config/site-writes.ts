import { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import type { Env } from "../env.ts";
import { draftAgentKey, forgetConfig, siteAgentKey } from "./config-store.ts";

/**
 * What the owner's console writes to KV, where the config store reads it. Every write drops this
 * isolate's cached copy; other isolates see it within CONFIG_CACHE_MS (and, on Cloudflare, once KV
 * has carried the write to their location, which KV bounds at about 60 s).
 */
export async function writeSite(env: Env, site: SiteConfig): Promise<void> {
  const checked = SiteConfig.parse(site);
  // CORS answers an origin some site lists (`origin:<origin>`). An origin the owner removed keeps
  // its entry: another site may list it too, and the entry only lets a preflight through; the
  // request itself is checked against this site's own list.
  const exact = checked.allowedOrigins.filter((o) => !o.endsWith(":*"));
  await Promise.all([
    env.CONFIG.put(`site:${checked.siteKey}`, JSON.stringify(checked)),
    ...exact.map((o) => env.CONFIG.put(`origin:${o}`, checked.siteKey)),
  ]);
  forgetConfig(`site:${checked.siteKey}`, ...exact.map((o) => `origin:${o}`));
}

export async function writeSiteAgent(env: Env, siteKey: string, agent: AgentConfig): Promise<void> {
  const key = siteAgentKey(siteKey, agent.id);
  await env.CONFIG.put(key, JSON.stringify(AgentConfig.parse(agent)));
  forgetConfig(key);
}

export async function writeDraftAgent(env: Env, siteKey: string, agent: AgentConfig): Promise<void> {
  const key = draftAgentKey(siteKey, agent.id);
  await env.CONFIG.put(key, JSON.stringify(AgentConfig.parse(agent)));
  forgetConfig(key);
}

export async function deleteDraftAgent(env: Env, siteKey: string, agentId: string): Promise<void> {
  const key = draftAgentKey(siteKey, agentId);
  await env.CONFIG.delete(key);
  forgetConfig(key);
}

/** The agent and its draft, if any: a deleted agent's draft never comes back with a new agent of its id. */
export async function deleteSiteAgent(env: Env, siteKey: string, agentId: string): Promise<void> {
  const keys = [siteAgentKey(siteKey, agentId), draftAgentKey(siteKey, agentId)];
  await Promise.all(keys.map((k) => env.CONFIG.delete(k)));
  forgetConfig(...keys);
}
