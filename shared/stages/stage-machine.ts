import type { LocalizedText } from "../config/localized-text.ts";
import type { StageCondition, StageConfig, StageRule } from "../config/stage-config.ts";
import type { FieldValue, FieldValues } from "./field-value.ts";

/**
 * The stage machine, pure: which stage comes first and next, what is missing, which completion
 * checks fail, and whether a stage advances by itself. The worker runs it on the authoritative
 * state; the widget uses it to show the same checks before the visitor presses "complete".
 */
export interface RuleCheck {
  ruleId: string;
  field?: string;
  passed: boolean;
  severity: StageRule["severity"];
  action: StageRule["action"];
  message: LocalizedText;
  suggestion?: LocalizedText;
}

export function orderedStages(stages: readonly StageConfig[]): StageConfig[] {
  return [...stages].sort((a, b) => a.order - b.order);
}

export function stageById(stages: readonly StageConfig[], id: string | null | undefined): StageConfig | undefined {
  return stages.find((s) => s.id === id);
}

export const isFilled = (v: FieldValue | undefined): boolean =>
  v !== undefined && v !== null && (typeof v !== "string" || v.trim() !== "") && (!Array.isArray(v) || v.length > 0);

export function missingRequired(stage: StageConfig, values: FieldValues = {}): string[] {
  return stage.required.filter((key) => !isFilled(values[key]));
}

/** Rule-based checks, plus one blocking check per missing required field (the completion criteria). */
export function ruleChecks(stage: StageConfig, values: FieldValues = {}): RuleCheck[] {
  const label = (key: string) => stage.fields.find((f) => f.key === key)?.label ?? { en: key, "zh-CN": key };
  const checks: RuleCheck[] = missingRequired(stage, values).map((key) => ({
    ruleId: `required:${key}`,
    field: key,
    passed: false,
    severity: "error",
    action: "block",
    message: { en: `${label(key).en} is required`, "zh-CN": `请填写「${label(key)["zh-CN"]}」` },
  }));
  for (const rule of stage.rules) {
    if (rule.kind === "prompt") continue;
    const value = rule.field ? values[rule.field] : undefined;
    const text = Array.isArray(value) ? value.join(" ") : value == null ? "" : String(value);
    let passed = true;
    if (rule.kind === "required") passed = isFilled(value);
    else if (!isFilled(value))
      passed = true; // length and pattern rules judge only what was given
    else if (rule.kind === "min_length") passed = text.length >= Number(rule.value ?? 0);
    else if (rule.kind === "max_length") passed = text.length <= Number(rule.value ?? Infinity);
    else if (rule.kind === "pattern") passed = safeRegex(String(rule.value ?? "")).test(text);
    if (rule.kind === "required" && checks.some((c) => c.field === rule.field)) continue;
    checks.push({
      ruleId: rule.id,
      field: rule.field,
      passed,
      severity: rule.severity,
      action: rule.action,
      message: rule.message,
      suggestion: rule.suggestion,
    });
  }
  return checks;
}

function safeRegex(source: string): RegExp {
  try {
    return new RegExp(source, "u");
  } catch {
    return /$^/; // a broken pattern in a config fails its rule instead of crashing the check
  }
}

/** Blocked when any failing check says `block`; warnings show but let the visitor go on. */
export function isBlocked(checks: readonly RuleCheck[]): boolean {
  return checks.some((c) => !c.passed && c.action === "block");
}

/** Reads `stage.field` (or `field` of the given stage) from the context. */
export function contextValue(
  context: Record<string, FieldValues>,
  path: string,
  stageId: string,
): FieldValue | undefined {
  const [a, b] = path.includes(".") ? path.split(".", 2) : [stageId, path];
  return context[a]?.[b];
}

export function conditionHolds(c: StageCondition, context: Record<string, FieldValues>, stageId: string): boolean {
  const v = contextValue(context, c.field, stageId);
  if (c.op === "exists") return isFilled(v);
  if (!isFilled(v)) return false;
  const [x, y] =
    typeof c.value === "number" ? [Number(v), c.value] : [String(v).toLowerCase(), String(c.value ?? "").toLowerCase()];
  switch (c.op) {
    case "eq":
      return x === y;
    case "neq":
      return x !== y;
    case "gt":
      return x > y;
    case "gte":
      return x >= y;
    case "lt":
      return x < y;
    case "lte":
      return x <= y;
  }
}

/** The stage after this one: a `condition` stage's first branch that holds, else its `next`. */
export function nextStageId(stage: StageConfig, context: Record<string, FieldValues>): string | null {
  if (stage.transition === "condition") {
    const branch = stage.conditions.find((c) => conditionHolds(c, context, stage.id));
    if (branch) return branch.next;
  }
  return stage.next;
}

/**
 * After an extraction: does the stage advance by itself? `user_confirm` never does (the visitor
 * presses complete); `auto` does once nothing blocks; `condition` once a branch holds and nothing blocks.
 */
export function autoTransition(
  stage: StageConfig,
  context: Record<string, FieldValues>,
): { advance: boolean; to: string | null } {
  const checks = ruleChecks(stage, context[stage.id]);
  if (stage.transition === "user_confirm" || isBlocked(checks)) return { advance: false, to: null };
  if (stage.transition === "condition") {
    const branch = stage.conditions.find((c) => conditionHolds(c, context, stage.id));
    return branch ? { advance: true, to: branch.next } : { advance: false, to: null };
  }
  return { advance: true, to: stage.next };
}

/** Fills `{{field}}` / `{{stage.field}}` placeholders (prompt rules, deep links use `{field}`). */
export function compileTemplate(
  template: string,
  context: Record<string, FieldValues>,
  stageId: string,
  open = "{{",
  close = "}}",
): string {
  const re = new RegExp(`${escape(open)}\\s*([a-z0-9_.-]+)\\s*${escape(close)}`, "gi");
  return template.replace(re, (_m, path: string) => {
    const v = contextValue(context, path, stageId);
    return Array.isArray(v) ? v.join(", ") : v == null ? "" : String(v);
  });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
