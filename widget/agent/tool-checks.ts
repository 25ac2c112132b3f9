import schemas from "virtual:parley/tool-schemas";
import type { CheckedTool } from "../../shared/tool.ts";
import { inputCheck, type InputSchema } from "./input-check.ts";

/** Every tool the widget may check the arguments of, by name, each with its schema's check. */
export const CHECKED_TOOLS: Record<string, CheckedTool> = Object.fromEntries(
  Object.entries(schemas).map(([name, t]) => [
    name,
    { name, runsOn: t.runsOn, input: inputCheck(t.schema as InputSchema) },
  ]),
);
