/**
 * Everything an agent with tools needs and a plain chat agent does not, in one module the widget
 * imports lazily: the tool schemas (zod/mini), their execution (browser tools, edge calls) and the
 * router. Loaded once the agent's config says it has tools, a router or stages (or on first need).
 */
import type { ToolDefinition } from "../../shared/tool.ts";

export { TOOLS } from "../../shared/tools/index.ts";
export { classifyIntent } from "../../shared/tools/classify-intent.ts";
export { createClientTools } from "./client-tools.ts";
export { executeToolCalls } from "./executor.ts";
export { pendingStep, runStepTools } from "./step-tools.ts";
export { routeTurn } from "./router.ts";

/**
 * An edge tool this bundle has no schema for (the sales tools): the worker holds its schema and
 * validates the arguments, so the widget ships none of it and passes the call on as it came.
 */
export const edgeToolStub = (name: string): ToolDefinition =>
  // The one schema method the executor calls, accepting anything; written out, it costs no zod in the bundle.
  ({
    name,
    runsOn: "edge",
    description: "",
    input: { safeParse: (data: unknown) => ({ success: true, data }) },
  }) as unknown as ToolDefinition;
