import { z } from "zod/mini";
import type { StageConfig, StageField } from "../config/stage-config.ts";

/**
 * The zod schema of a stage's extraction, built from its field list: what the model's
 * record_stage_data call must match, and what validates it. Every field is optional (a message
 * may give only some) and nullable (to clear one); unknown keys are refused, so the model learns
 * the right names from the error.
 */
export function fieldSchema(field: StageField): z.ZodMiniType {
  switch (field.type) {
    case "number": {
      const checks = [];
      if (field.min !== undefined) checks.push(z.gte(field.min));
      if (field.max !== undefined) checks.push(z.lte(field.max));
      return checks.length ? z.number().check(...checks) : z.number();
    }
    case "enum":
      return z.enum((field.options?.length ? field.options : [""]) as [string, ...string[]]);
    case "list":
      return z.array(z.string().check(z.maxLength(500))).check(z.maxLength(50));
    default:
      return z.string().check(z.maxLength(field.type === "text" ? 4000 : 500));
  }
}

export function stageValuesSchema(stage: Pick<StageConfig, "fields">) {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const f of stage.fields) shape[f.key] = z.optional(z.nullable(fieldSchema(f)));
  return z.strictObject(shape);
}
