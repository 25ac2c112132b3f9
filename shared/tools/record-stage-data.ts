import { z } from "zod/mini";
import type { StageConfig } from "../config/stage-config.ts";
import { stageValuesSchema } from "../stages/stage-fields.ts";
import { TOOL_NAMES } from "./tool-names.ts";
import { defineTool, type ToolDefinition } from "./tool.ts";
import { FieldValue } from "../stages/field-value.ts";

export const RECORD_STAGE_DATA = TOOL_NAMES.recordStageData;

const DESCRIPTION =
  "Record what the visitor told you for the current stage, as " +
  "values of its fields. Call it whenever the visitor gives or " +
  "changes information; send only the fields you learned. " +
  "Never invent values.";

/**
 * Generic shape (any field names), for the registry and the widget's first check. The worker gives
 * the model, and validates against, the current stage's exact schema: `stageDataTool(stage)`.
 */
export const recordStageData = defineTool({
  name: RECORD_STAGE_DATA,
  runsOn: "edge",
  description: DESCRIPTION,
  input: z.object({ values: z.record(z.string(), FieldValue) }),
});

export function stageDataTool(stage: StageConfig): ToolDefinition {
  const fields = stage.fields.map((f) => `${f.key}${f.description ? ` (${f.description})` : ""}`).join("; ");
  return defineTool({
    name: RECORD_STAGE_DATA,
    runsOn: "edge",
    description: `${DESCRIPTION} Current stage: ${stage.name.en}. Fields: ${fields}.`,
    input: z.object({ values: stageValuesSchema(stage) }),
  });
}
