import { missingRequired, stageById } from "../../shared/stages/stage-machine.ts";
import { parseToolInput } from "../../shared/tools/tool.ts";
import { stageDataTool } from "../../shared/tools/record-stage-data.ts";
import { ApiError } from "../errors.ts";
import type { EdgeToolContext, EdgeToolOutput } from "./registry.ts";
import { sessionRoom } from "../objects.ts";
import type { FieldValues } from "../../shared/stages/field-value.ts";

/**
 * The model's extraction into the current stage: validated against that stage's own schema (the
 * one it was given), stored as a context event, and the stage advances if its transition says so.
 * The observation tells the model what is still missing and where the workflow now stands.
 */
export async function recordStageValues(ctx: EdgeToolContext, raw: FieldValues): Promise<EdgeToolOutput> {
  const room = sessionRoom(ctx.env, ctx.sessionId);
  const state = await room.getState();
  const stage = stageById(ctx.agent.stages, state.stage.current);
  if (!stage)
    throw new ApiError(
      409,
      "conflict",
      state.stage.done ? "The workflow is complete; nothing more to record" : "No stage is open",
    );
  const parsed = parseToolInput(stageDataTool(stage), { values: raw });
  if (!parsed.ok) throw new ApiError(400, "validation_failed", parsed.error);
  const values = Object.fromEntries(
    Object.entries((parsed.value as { values: FieldValues }).values).filter(([, v]) => v !== undefined),
  );
  const outcome = await room.updateContext({ stageId: stage.id, values, source: "model" }, ctx.agent.stages);
  if (outcome.status !== "ok" || !outcome.state)
    throw new ApiError(409, "conflict", `Could not record into stage ${stage.id} (${outcome.status})`);
  const after = outcome.state;
  return {
    result: {
      recorded: Object.keys(values),
      stage: stage.id,
      missing: missingRequired(stage, after.context[stage.id]),
      current_stage: after.stage.current,
      workflow_complete: after.stage.done,
    },
    events: outcome.events,
  };
}
