import type { Plugin } from "vite";
import { z } from "zod/mini";
import type { CheckedTool, ToolDefinition } from "../shared/tools/tool.ts";
import { classifyIntent } from "../shared/tools/classify-intent.ts";
import { TOOLS } from "../shared/tools/index.ts";
import { INPUT_SCHEMA_KEYWORDS, type InputSchema } from "../widget/agent/input-check.ts";

/** The module the widget's tool runtime imports its tools' input schemas from. */
export const TOOL_SCHEMAS_MODULE = "virtual:parley/tool-schemas";

export type ToolSchemas = Record<string, { runsOn: CheckedTool["runsOn"]; schema: InputSchema }>;

/** Fails the build on a keyword the browser's check does not know: it would be accepted unchecked. */
function known(node: unknown, where: string): InputSchema {
  const s = node as Record<string, unknown>;
  for (const k of Object.keys(s)) {
    if (!INPUT_SCHEMA_KEYWORDS.includes(k))
      throw new Error(`${where}: "${k}" is not checked in the widget (input-check.ts)`);
  }
  const names = s.propertyNames as Record<string, unknown> | undefined;
  if (names && (names.type !== "string" || Object.keys(names).length > 1)) {
    throw new Error(`${where}: propertyNames other than { type: "string" } are not checked in the widget`);
  }
  for (const [k, p] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) known(p, `${where}.${k}`);
  if (s.additionalProperties !== undefined) known(s.additionalProperties, `${where}.*`);
  if (s.items !== undefined) known(s.items, `${where}[]`);
  ((s.anyOf ?? []) as unknown[]).forEach((b, i) => known(b, `${where}|${i}`));
  return s as InputSchema;
}

/** Each tool's input schema as the JSON Schema zod writes for it, refusing what the widget cannot check. */
export function toolSchemasFor(defs: readonly ToolDefinition[]): ToolSchemas {
  const out: ToolSchemas = {};
  for (const def of defs) {
    const { $schema: _drop, ...schema } = z.toJSONSchema(def.input, { io: "input" }) as Record<string, unknown>;
    out[def.name] = { runsOn: def.runsOn, schema: known(schema, def.name) };
  }
  return out;
}

/**
 * The browser's copy of every tool's input schema, derived from its zod schema (the one source of
 * truth, shared/tools/): the widget checks arguments against these (widget/agent/input-check.ts)
 * and ships no zod.
 */
export const toolSchemas = (): ToolSchemas => toolSchemasFor([...Object.values(TOOLS), classifyIntent]);

/** Serves TOOL_SCHEMAS_MODULE, worked out when the build (or a test run) first imports it. */
export function toolSchemasPlugin(): Plugin {
  const id = `\0${TOOL_SCHEMAS_MODULE}`;
  return {
    name: "parley:tool-schemas",
    resolveId: (source) => (source === TOOL_SCHEMAS_MODULE ? id : undefined),
    load: (module) => (module === id ? `export default ${JSON.stringify(toolSchemas())};` : undefined),
  };
}
