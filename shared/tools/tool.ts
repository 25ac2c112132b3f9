import { z } from "zod/mini";

/**
 * One tool abstraction (vercel/ai's schema habit): a tool is a name, a description, a zod input
 * schema and where it runs. The schema gives the JSON schema the model sees and validates the
 * arguments that come back, on whichever side runs the tool.
 */
export type ToolSide = "client" | "edge";

export interface ToolDefinition<S extends z.ZodMiniType = z.ZodMiniType> {
  name: string;
  description: string;
  input: S;
  /** `client`: runs in the widget. `edge`: runs in the worker, which holds its secrets. */
  runsOn: ToolSide;
}

export type ToolInput<T extends ToolDefinition> = z.output<T["input"]>;

export function defineTool<S extends z.ZodMiniType>(def: ToolDefinition<S>): ToolDefinition<S> {
  return def;
}

export interface OpenAITool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The OpenAI function schema of a tool; `additionalProperties: false` forced on every object. */
export function toOpenAITool(def: ToolDefinition): OpenAITool {
  const { $schema: _drop, ...schema } = z.toJSONSchema(def.input, { io: "input" }) as Record<string, unknown>;
  return {
    type: "function",
    function: { name: def.name, description: def.description, parameters: closeObjects(schema) },
  };
}

function closeObjects(node: unknown): Record<string, unknown> {
  if (Array.isArray(node)) return node.map(closeObjects) as unknown as Record<string, unknown>;
  if (!node || typeof node !== "object") return node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = typeof v === "object" && v !== null ? closeObjects(v) : v;
  if (out.type === "object" && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

export type ParsedToolInput<T> = { ok: true; value: T } | { ok: false; error: string };

/** A schema issue as parseToolInput words it: zod's issues have this shape, and so do the widget's checks. */
export interface CheckIssue {
  code: string;
  path: PropertyKey[];
  message?: string;
  expected?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  values?: readonly unknown[];
  origin?: string;
  keys?: string[];
}

/**
 * What validating a tool's input takes: a zod schema has it, and so has the widget's check of the JSON
 * schema the build derives from one (widget/agent/input-check.ts), which keeps zod out of the browser.
 */
export interface InputCheck {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues: CheckIssue[] } };
}

/** A tool as the side that runs it needs it: its name, where it runs, and how its input is checked. */
export interface CheckedTool {
  name: string;
  runsOn: ToolSide;
  input: InputCheck;
}

type InputOf<T> = T extends ToolDefinition ? ToolInput<T> : unknown;

/**
 * Validates a model's arguments (a JSON string or an object). Bad input is not thrown: it comes
 * back with a reason the model can act on (vercel/ai parse-tool-call habit).
 */
export function parseToolInput<T extends CheckedTool>(def: T, args: string | unknown): ParsedToolInput<InputOf<T>> {
  let value: unknown = args;
  if (typeof args === "string") {
    try {
      value = args.trim() === "" ? {} : JSON.parse(args);
    } catch {
      return {
        ok: false,
        error: `Arguments for ${def.name} are not valid JSON. Send a JSON object matching its schema.`,
      };
    }
  }
  const parsed = def.input.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data as InputOf<T> };
  const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(arguments)"}: ${describeIssue(i)}`).join("; ");
  return { ok: false, error: `Invalid arguments for ${def.name}: ${issues}` };
}

/**
 * A readable reason for a schema issue. zod/mini carries no message locale (it would weigh on the
 * widget), and the model needs more than "Invalid input" to correct its call.
 */
export function describeIssue(i: CheckIssue): string {
  switch (i.code) {
    case "invalid_type":
      return `expected ${i.expected}`;
    case "too_small":
      return i.origin === "string"
        ? `must have at least ${i.minimum} characters`
        : i.origin === "array"
          ? `must have at least ${i.minimum} items`
          : `must be at least ${i.minimum}`;
    case "too_big":
      return i.origin === "string"
        ? `must have at most ${i.maximum} characters`
        : i.origin === "array"
          ? `must have at most ${i.maximum} items`
          : `must be at most ${i.maximum}`;
    case "invalid_value":
      return `must be one of ${(i.values ?? []).map((v) => JSON.stringify(v)).join(", ")}`;
    case "unrecognized_keys":
      return `unknown keys ${(i.keys ?? []).join(", ")}`;
    case "invalid_format":
      return "has the wrong format";
    default:
      return i.message && i.message !== "Invalid input" ? i.message : "is invalid";
  }
}
