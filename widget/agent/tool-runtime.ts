/**
 * Everything an agent with tools needs and a plain chat agent does not, in one module the widget
 * imports lazily: the tools' input checks (JSON schemas derived from the zod schemas at build time,
 * so no zod ships to the browser), their execution (browser tools, edge calls) and the router.
 * Loaded once the agent's config says it has tools, a router or stages (or on first need).
 */
import type { CheckedTool } from "../../shared/tool.ts";
import { TOOL_NAMES } from "../../shared/tool-names.ts";
import { CHECKED_TOOLS } from "./tool-checks.ts";

export { parseToolInput } from "../../shared/tool.ts";
export { createClientTools } from "./client-tools.ts";
export { executeToolCalls } from "./executor.ts";
export { pendingStep, runStepTools } from "./step-tools.ts";
export { routeTurn } from "./router.ts";

/** The router's classifier (its arguments are the route decision), and every tool an agent config may name. */
export const { [TOOL_NAMES.classifyIntent]: classifyIntent, ...TOOLS } = CHECKED_TOOLS;

/**
 * An edge tool this bundle has no schema for (the sales tools): the worker holds its schema and
 * validates the arguments, so the widget ships none of it and passes the call on as it came.
 */
export const edgeToolStub = (name: string): CheckedTool => ({
  name,
  runsOn: "edge",
  input: { safeParse: (data: unknown) => ({ success: true, data }) },
});
