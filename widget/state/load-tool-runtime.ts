import type { PublicAgent } from "../../shared/config/agent-config.ts";
import { loadOnce } from "../load-once.ts";

type ToolRuntime = typeof import("./tool-runtime.ts");
/** The tool runtime loads on first need (see tool-runtime.ts); later calls reuse the module. */
export const loadToolRuntime: () => Promise<ToolRuntime> = loadOnce(() => import("./tool-runtime.ts"));

/**
 * The agent's turns use tools (its own, its stages' extraction tool) or its router: the tool runtime will be
 * needed.
 */
export function usesToolRuntime(agent: PublicAgent): boolean {
  return agent.tools.length > 0 || agent.stages.length > 0 || !!agent.router;
}
