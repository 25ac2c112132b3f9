import type { AgentConfig, PublicAgent } from "../../shared/agent-config.ts";
import type { Env } from "../env.ts";
import { usesDemoModel } from "../llm/upstream.ts";

/** What the browser may know of an agent: everything but its prompts (system, strategies, guidance, stage instructions, rule templates). */
export function publicAgent(agent: AgentConfig, env: Env): PublicAgent {
  const { systemPrompt: _hidden, strategies: _s, guidance: _g, evalCases: _e, ...rest } = agent;
  const stages = agent.stages.map((s) => ({ ...s, instruction: "", rules: s.rules.map(({ template: _t, ...r }) => r) }));
  return { ...rest, stages, demo: usesDemoModel(env) };
}
