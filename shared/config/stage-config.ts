import { z } from "zod/mini";
import { LocalizedText } from "./localized-text.ts";

/**
 * Stage workflows (the protocol designer's), a capability of any agent config. Everything here is JSON, so a
 * config stored in KV validates with these schemas; a stage's extraction schema is a list of
 * fields from which a zod schema is built (stage-fields.ts), so one definition is both what the
 * model is told to extract and what validates it.
 */
export const FIELD_TYPES = ["string", "text", "number", "enum", "list"] as const;

export const StageField = z.object({
  key: z.string().check(z.regex(/^[a-z][a-z0-9_]{0,39}$/)),
  label: LocalizedText,
  type: z.enum(FIELD_TYPES),
  /** What the model should put here. */
  description: z.optional(z.string()),
  options: z.optional(z.array(z.string())),
  min: z.optional(z.number()),
  max: z.optional(z.number()),
});
export type StageField = z.infer<typeof StageField>;

export const RULE_KINDS = ["required", "min_length", "max_length", "pattern", "prompt"] as const;
export const RULE_SEVERITIES = ["error", "warning", "info"] as const;
export const RULE_ACTIONS = ["block", "warn", "log"] as const;

/** A completion check (the stage workflow's reflexion rules): rule-based, or prompt-based (an LLM verdict). */
export const StageRule = z.object({
  id: z.string(),
  kind: z.enum(RULE_KINDS),
  field: z.optional(z.string()),
  /** min/max length, or the pattern's source. */
  value: z.optional(z.union([z.number(), z.string()])),
  /** Prompt rules: a template with {{field}} placeholders; the model answers pass or fail with a reason. */
  template: z.optional(z.string()),
  severity: z.enum(RULE_SEVERITIES),
  action: z.enum(RULE_ACTIONS),
  message: LocalizedText,
  suggestion: z.optional(LocalizedText),
});
export type StageRule = z.infer<typeof StageRule>;

export const ACTION_TYPES = ["deep_link", "api_call", "modal"] as const;

export const ActionCard = z.object({
  id: z.string(),
  type: z.enum(ACTION_TYPES),
  title: LocalizedText,
  description: z.optional(LocalizedText),
  /** deep_link: an http(s) URL template; `{field}` is replaced by that context value, URL-encoded. */
  url: z.optional(z.string()),
  /** api_call: the id of an endpoint configured on the worker (its URL and secrets stay there). */
  endpoint: z.optional(z.string()),
  /** api_call: request parameter -> context field. */
  params: z.optional(z.record(z.string(), z.string())),
  /** modal: the form's fields; `tool` computes the result from them in the widget. */
  form: z.optional(z.array(StageField)),
  tool: z.optional(z.string()),
  /** Result key -> context field of the current stage: how a result is merged into the context. */
  resultMapping: z._default(z.record(z.string(), z.string()), {}),
  /**
   * A sales agent's lead card: a modal whose form has `name`, `email`, `company` and `consent` (an enum
   * field whose "yes" is the visitor's consent). Its result is checked and sent as `lead.captured`.
   */
  lead: z.optional(z.boolean()),
});
export type ActionCard = z.infer<typeof ActionCard>;

export const TRANSITION_MODES = ["user_confirm", "auto", "condition"] as const;
export const CONDITION_OPS = ["eq", "neq", "gt", "gte", "lt", "lte", "exists"] as const;

export const StageCondition = z.object({
  /** A context path `stage.field` (or `field` of this stage). */
  field: z.string(),
  op: z.enum(CONDITION_OPS),
  value: z.optional(z.union([z.string(), z.number(), z.boolean()])),
  next: z.string(),
});
export type StageCondition = z.infer<typeof StageCondition>;

export const StageConfig = z.object({
  id: z.string().check(z.regex(/^[a-z][a-z0-9_-]{0,39}$/)),
  name: LocalizedText,
  order: z.number(),
  /** Goes into the system prompt while the stage is current. */
  instruction: z.string(),
  fields: z.array(StageField),
  /** Completion criteria: the fields that must be filled. */
  required: z._default(z.array(z.string()), []),
  next: z.nullable(z.string()),
  transition: z.enum(TRANSITION_MODES),
  /** `condition` mode: the first branch that holds picks the next stage and advances. */
  conditions: z._default(z.array(StageCondition), []),
  tools: z._default(z.array(z.string()), []),
  actionCards: z._default(z.array(ActionCard), []),
  rules: z._default(z.array(StageRule), []),
});
export type StageConfig = z.infer<typeof StageConfig>;
