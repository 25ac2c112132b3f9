import type { AgentConfig } from "../../shared/config/agent-config.ts";
import type { Env } from "../env.ts";
import { SwrCache } from "./swr-cache.ts";
import { promptRegistry } from "../objects.ts";

/**
 * Bounds on how old a compiled prompt the chat path may send (stated in docs/admin-api.md): fresh for
 * 5 s; up to 30 s it is sent while a refresh runs; after that the request reads the registry.
 */
export const PROMPT_FRESH_MS = 5_000;
export const PROMPT_MAX_STALE_MS = 30_000;

export interface CompiledPrompt {
  text: string;
  versions: { system: number; strategies: number; guidance: number } | null;
}

const cache = new SwrCache<CompiledPrompt>({ freshMs: PROMPT_FRESH_MS, maxStaleMs: PROMPT_MAX_STALE_MS });
const keyOf = (siteKey: string, agentId: string) => `${siteKey}/${agentId}`;

/** What the registry seeds an agent's parts from: its own config. */
export function agentSeed(agent: AgentConfig) {
  return { system: agent.systemPrompt, strategies: agent.strategies, guidance: agent.guidance };
}

/**
 * The agent's compiled system prompt at `production`. When the registry cannot be read and this
 * isolate holds no earlier copy, the agent config's own prompt is the fallback: never nothing.
 */
export async function agentSystemPrompt(
  env: Env,
  siteKey: string,
  agent: AgentConfig,
  background?: (p: Promise<unknown>) => void,
): Promise<CompiledPrompt> {
  const read = async (): Promise<CompiledPrompt> => {
    const { text, versions } = await promptRegistry(env, siteKey).agentPrompt(agent.id, agentSeed(agent));
    return { text, versions };
  };
  try {
    return (await cache.get(keyOf(siteKey, agent.id), read, background)).value;
  } catch {
    return configPrompt(agent);
  }
}

/** The prompt as the agent's config writes it, past the registry: a draft's own text, or the fallback. */
export function configPrompt(agent: AgentConfig): CompiledPrompt {
  return {
    text: [agent.systemPrompt, agent.strategies, agent.guidance].filter((t) => t.trim()).join("\n\n"),
    versions: null,
  };
}

/** For the turn's trace: `system@1 strategies@2 guidance@1`, or the config's own text when the registry failed. */
export function promptVersions(prompt: CompiledPrompt): string {
  const v = prompt.versions;
  return v
    ? `system@${v.system} strategies@${v.strategies} guidance@${v.guidance}`
    : "agent config (a draft, or the registry unreadable)";
}

/** A save or label move in this isolate is seen here at once; other isolates within the bounds above. */
export function forgetAgentPrompt(siteKey: string, agentId: string): void {
  cache.delete(keyOf(siteKey, agentId));
}

export function clearPromptCache(): void {
  cache.clear();
}
