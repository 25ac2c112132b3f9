import type { AgentConfig, PublicAgent } from "../../shared/agent-config.ts";
import type { Env } from "../env.ts";
import { usesDemoModel } from "../llm/upstream.ts";

/** What the browser may know of an agent: everything but its system prompt. */
export function publicAgent(agent: AgentConfig, env: Env): PublicAgent {
  const { systemPrompt: _hidden, ...rest } = agent;
  return { ...rest, demo: usesDemoModel(env) };
}
