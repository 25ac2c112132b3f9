import { actionEvent, contextEvent, freshEventId, stageChangedEvent } from "../../shared/session/events.ts";
import { traceEvent } from "../../shared/chat/step-events.ts";
import type { SessionState } from "../../shared/session/session.ts";
import type { StageConfig } from "../../shared/config/stage-config.ts";
import {
  autoTransition,
  isBlocked,
  nextStageId,
  ruleChecks,
  stageById,
  type RuleCheck,
} from "../../shared/stages/stage-machine.ts";
import type { FieldValues } from "../../shared/stages/field-value.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

export interface ContextRequest {
  stageId: string;
  values: FieldValues;
  source: "model" | "visitor" | "action";
  /** The contextVersion the edit was based on; a different current version is a conflict. */
  baseVersion?: number;
  /** An action card's result, recorded with the values it mapped. */
  action?: { cardId: string; result: FieldValues };
}

export interface CompleteRequest {
  stageId: string;
  /** Results of the stage's prompt rules, judged by the model before this call. */
  promptChecks: RuleCheck[];
}

export type StageStatus = "ok" | "conflict" | "not_current" | "unknown_stage" | "blocked" | "done";

export interface StageOutcome {
  status: StageStatus;
  events: SessionEvent[];
  checks?: RuleCheck[];
  state?: SessionState;
}

function transitionEvents(
  from: string,
  to: string | null,
  reason: "confirmed" | "auto" | "condition",
  at: number,
): SessionEvent[] {
  return [stageChangedEvent(from, to, reason, at)];
}

/**
 * Pure decisions of the SessionRoom's stage operations: which events an update or a completion
 * appends, given the state it sees. The model writes only into the current stage; the visitor
 * (and action results) may correct the current or an earlier stage.
 */
export function updateContext(state: SessionState, req: ContextRequest, stages: StageConfig[]): StageOutcome {
  const stage = stageById(stages, req.stageId);
  if (!stage) return { status: "unknown_stage", events: [] };
  if (req.baseVersion !== undefined && req.baseVersion !== state.contextVersion)
    return { status: "conflict", events: [] };
  const current = state.stage.current;
  const editable =
    req.source === "model" ? current === stage.id : current === stage.id || state.stage.completed.includes(stage.id);
  if (!editable) return { status: "not_current", events: [] };
  const at = Date.now();
  const events: SessionEvent[] = [];
  if (req.action) events.push(actionEvent(stage.id, req.action.cardId, req.action.result, at));
  events.push(contextEvent(stage.id, req.values, req.source, at));
  // An `auto` or `condition` stage moves on by itself once its values allow it; a visitor's own
  // edit never moves the workflow (they press "complete" when they are ready).
  if (req.source !== "visitor" && current === stage.id) {
    const context = { ...state.context, [stage.id]: { ...state.context[stage.id], ...req.values } };
    const t = autoTransition(stage, context);
    if (t.advance)
      events.push(...transitionEvents(stage.id, t.to, stage.transition === "condition" ? "condition" : "auto", at));
  }
  return { status: "ok", events };
}

export function completeStage(state: SessionState, req: CompleteRequest, stages: StageConfig[]): StageOutcome {
  const stage = stageById(stages, req.stageId);
  if (!stage) return { status: "unknown_stage", events: [] };
  if (state.stage.current !== stage.id) return { status: state.stage.done ? "done" : "not_current", events: [] };
  const checks = [...ruleChecks(stage, state.context[stage.id]), ...req.promptChecks];
  const at = Date.now();
  const blocked = isBlocked(checks);
  // Every attempt is traced, failures included: `log` rules exist to be read here.
  const failed = checks.filter((c) => !c.passed);
  const detail = { failed: failed.map((c) => `${c.ruleId}:${c.action}`).join(",") || null };
  const trace = traceEvent(freshEventId("trace"), { kind: "stage_complete", name: stage.id, ok: !blocked, detail }, at);
  if (blocked) return { status: "blocked", events: [trace], checks };
  return {
    status: "ok",
    events: [trace, ...transitionEvents(stage.id, nextStageId(stage, state.context), "confirmed", at)],
    checks,
  };
}
