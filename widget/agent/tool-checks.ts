import schemas from "virtual:parley/tool-schemas";
import type { CheckedTool } from "../../shared/tools/tool.ts";
import { TOOL_NAMES } from "../../shared/tools/tool-names.ts";
import { inputCheck, type InputSchema } from "./input-check.ts";

/** Every tool the widget may check the arguments of, by name, each with its schema's check. */
export const CHECKED_TOOLS: Record<string, CheckedTool> = Object.fromEntries(
  Object.entries(schemas).map(([name, t]) => [
    name,
    { name, runsOn: t.runsOn, input: inputCheck(t.schema as InputSchema) },
  ]),
);

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
