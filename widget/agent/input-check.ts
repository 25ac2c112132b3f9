import type { CheckIssue, InputCheck } from "../../shared/tools/tool.ts";

/**
 * The part of JSON Schema that `z.toJSONSchema` writes for the tools' zod input schemas, and nothing
 * more: the build derives each tool's schema from its zod schema (scripts/tool-schemas-plugin.ts) and
 * refuses a keyword not listed here, so nothing a schema says is ever skipped in the browser.
 */
export interface InputSchema {
  type?: "object" | "array" | "string" | "number" | "integer" | "boolean" | "null";
  properties?: Record<string, InputSchema>;
  required?: string[];
  /** A schema: the object is a record whose values all follow it (zod's z.record). */
  additionalProperties?: InputSchema;
  /** A record's keys; z.record(z.string(), ...) writes `{ type: "string" }`, which every key meets. */
  propertyNames?: { type: "string" };
  items?: InputSchema;
  anyOf?: InputSchema[];
  enum?: unknown[];
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  maxItems?: number;
}

export const INPUT_SCHEMA_KEYWORDS: readonly string[] = [
  ...["type", "properties", "required", "additionalProperties", "propertyNames", "items", "anyOf", "enum"],
  ...["default", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "maxItems"],
];

type Path = (string | number)[];
/** `continue`: a failed check after which zod goes on (a bound); without it the value was of the wrong kind. */
type Issue = CheckIssue & { continue?: true };
const aborted = (issues: Issue[]) => issues.some((i) => !i.continue);

/**
 * Checks `v` as zod parses it with the schema the JSON schema came from: the same issues in the same
 * order (so describeIssue words them the same for the model) and the same output, with unknown keys
 * dropped and defaults filled. Written after what zod 4 does, quirks included (a string's length
 * bounds are checked on an array given in its place); test/widget/agent/input-check.test.ts holds it
 * to zod on valid and invalid arguments for every tool.
 */
function check(s: InputSchema, v: unknown, path: Path, issues: Issue[]): unknown {
  const issue = (code: string, more: Omit<Issue, "code" | "path">) => void issues.push({ code, path, ...more });
  const bound = (code: string, more: Omit<Issue, "code" | "path">) => issue(code, { ...more, continue: true });
  if (s.enum) return s.enum.includes(v) ? v : issue("invalid_value", { values: s.enum });
  if (s.anyOf) {
    // The first branch that takes it; else the one branch whose kind was right, with its own issues.
    const tries = s.anyOf.map((b) => {
      const own: Issue[] = [];
      return { own, out: check(b, v, path, own) };
    });
    const pick = tries.find((x) => !x.own.length) ?? tries.filter((x) => !aborted(x.own));
    if (!Array.isArray(pick)) return pick.out;
    if (pick.length !== 1) return issue("invalid_union", {});
    issues.push(...pick[0].own);
    return pick[0].out;
  }
  const t = s.type;
  if (t === "object") {
    const record = s.additionalProperties;
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      return issue("invalid_type", { expected: record ? "record" : "object" });
    }
    const input = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    if (record) for (const k of Object.keys(input)) out[k] = check(record, input[k], [...path, k], issues);
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      const x = input[k] === undefined && "default" in p ? structuredClone(p.default) : input[k];
      if (x !== undefined || s.required?.includes(k)) out[k] = check(p, x, [...path, k], issues);
    }
    return out;
  }
  // zod checks length bounds on anything with a length, after a value of the wrong kind too. A string's
  // length is its characters as zod counts them: code points, not UTF-16 units.
  const lengths = (min?: number, max?: number) => {
    const length = (v as { length?: unknown } | null | undefined)?.length;
    if (length === undefined) return;
    const text = typeof v === "string";
    const size = (text ? [...v].length : length) as number;
    const origin = text ? "string" : Array.isArray(v) ? "array" : "unknown";
    if (min !== undefined && !(size >= min)) bound("too_small", { origin, minimum: min });
    if (max !== undefined && !(size <= max)) bound("too_big", { origin, maximum: max });
  };
  if (t === "array") {
    if (!Array.isArray(v)) {
      issue("invalid_type", { expected: "array" });
      return lengths(undefined, s.maxItems);
    }
    // zod reports an array over its size alone, without reading its items.
    if (s.maxItems !== undefined && v.length > s.maxItems)
      return issue("too_big", { origin: "array", maximum: s.maxItems });
    return v.map((x, i) => check(s.items ?? {}, x, [...path, i], issues));
  }
  if (t === "string") {
    if (typeof v !== "string") issue("invalid_type", { expected: "string" });
    lengths(s.minLength, s.maxLength);
    return v;
  }
  if (t === "number" || t === "integer") {
    if (typeof v !== "number" || !Number.isFinite(v)) return issue("invalid_type", { expected: "number" });
    if (t === "integer") {
      if (!Number.isInteger(v)) return issue("invalid_type", { expected: "int" });
      if (v > Number.MAX_SAFE_INTEGER) bound("too_big", { origin: "int", maximum: Number.MAX_SAFE_INTEGER });
      if (v < Number.MIN_SAFE_INTEGER) bound("too_small", { origin: "int", minimum: Number.MIN_SAFE_INTEGER });
    }
    const low = s.minimum ?? s.exclusiveMinimum;
    const high = s.maximum ?? s.exclusiveMaximum;
    if (low !== undefined && (v < low || (v === low && s.exclusiveMinimum !== undefined))) {
      bound("too_small", { origin: "number", minimum: low });
    }
    if (high !== undefined && (v > high || (v === high && s.exclusiveMaximum !== undefined))) {
      bound("too_big", { origin: "number", maximum: high });
    }
    return v;
  }
  if (t === "boolean" || t === "null") {
    return (t === "null" ? v === null : typeof v === "boolean") ? v : issue("invalid_type", { expected: t });
  }
  return v;
}

/** A tool's input check in the browser, from the JSON schema the build derived from its zod schema. */
export function inputCheck(schema: InputSchema): InputCheck {
  return {
    safeParse(value) {
      const issues: Issue[] = [];
      const data = check(schema, value, [], issues);
      return issues.length ? { success: false, error: { issues } } : { success: true, data };
    },
  };
}
