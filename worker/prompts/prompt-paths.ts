import { z } from "zod/mini";
import { DESK_AGENT, DESK_PROMPT_SEEDS } from "./desk-prompts.ts";
import { compile, variablesOf } from "./template.ts";

/** `<agent>/<name>`: an agent's prompts, or the desk's own (`strategy-desk/...`). */
export const PromptPath = z.string().check(z.regex(/^[a-z0-9][a-z0-9-]{0,63}\/[a-z0-9][a-z0-9-]{0,63}$/));
export const LabelName = z.string().check(z.regex(/^[a-z][a-z0-9._-]{0,39}$/));

/** The parts an agent's system prompt is compiled from, each a prompt `<agent>/<part>`. */
export const AGENT_PARTS = ["system", "strategies", "guidance"] as const;
export type AgentPart = (typeof AGENT_PARTS)[number];

export const LABELS = { production: "production", candidate: "candidate", latest: "latest" } as const;

/** Which variables a path's text may use; `null`: any (an owner's own prompts). */
export function allowedVariables(path: string): readonly string[] | null {
  const [agent, name] = path.split("/");
  if (agent === DESK_AGENT) return DESK_PROMPT_SEEDS[path] ? variablesOf(DESK_PROMPT_SEEDS[path]) : null;
  if (name === "system") return ["strategies", "guidance"];
  if (name === "strategies" || name === "guidance") return [];
  return null;
}

export type AgentParts = Record<AgentPart, { text: string; variables: readonly string[]; version: number }>;

/**
 * The system prompt the chat path sends. A system text may place `{{strategies}}` and
 * `{{guidance}}` itself; parts it does not place follow it under a heading, so the desk's edits
 * always reach the model.
 */
export function composeAgentPrompt(parts: AgentParts, agentId = ""): string {
  const { system, strategies, guidance } = parts;
  const vars: Record<string, string> = {};
  const rest: string[] = [];
  for (const [key, part, heading] of [
    ["strategies", strategies, "Conversation strategies"],
    ["guidance", guidance, "Before each reply"],
  ] as const) {
    if (system.variables.includes(key)) vars[key] = part.text;
    else if (part.text.trim()) rest.push(`## ${heading}\n${part.text.trim()}`);
  }
  return [compile({ ...system, path: `${agentId}/system` }, vars), ...rest].join("\n\n");
}
