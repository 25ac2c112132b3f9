import type { ToolDefinition, ToolInput } from "../../shared/tool.ts";
import { knowledgeSearch } from "../../shared/tools/knowledge-search.ts";
import { webSearch } from "../../shared/tools/web-search.ts";
import type { Env } from "../env.ts";
import { searchKnowledge } from "./knowledge.ts";
import { searchWeb } from "./web-search.ts";

export interface EdgeToolContext {
  env: Env;
  tenantId: string;
}

interface EdgeTool<T extends ToolDefinition = ToolDefinition> {
  def: T;
  run(ctx: EdgeToolContext, input: ToolInput<T>): Promise<unknown>;
}

const edgeTool = <T extends ToolDefinition>(def: T, run: EdgeTool<T>["run"]): EdgeTool => ({ def, run } as unknown as EdgeTool);

/** Tools that need a secret or the tenant's data run here, behind the proxy. */
export const EDGE_TOOLS: Record<string, EdgeTool> = {
  [knowledgeSearch.name]: edgeTool(knowledgeSearch, async ({ env, tenantId }, input) => ({
    hits: await searchKnowledge(env, tenantId, input.query, input.top_k ?? 3),
  })),
  [webSearch.name]: edgeTool(webSearch, ({ env }, input) => searchWeb(env, input.query, input.max_results ?? 5)),
};
