import { z } from "zod/mini";
import { AgentConfig } from "../../shared/config/agent-config.ts";
import { ERROR_CODES, ErrorBody } from "../../shared/wire/errors.ts";

export type JsonSchema = Record<string, unknown>;

/** Schemas the document names once (components) and refers to wherever they appear. */
const NAMED = z.registry<{ id: string }>();
NAMED.add(AgentConfig, { id: "AgentConfig" });
NAMED.add(ErrorBody, { id: "ErrorBody" });

const ref = (id: string) => `#/components/schemas/${id}`;

/**
 * A zod schema (zod/mini's too) as the document's JSON Schema (draft 2020-12, OpenAPI 3.1's own):
 * `input` for what a client sends (defaults may be left out), `output` for what the worker answers.
 * A named schema inside becomes a reference to its component; one a JSON Schema cannot state
 * (a transform) is left open rather than refused.
 */
export function jsonSchema(schema: z.ZodMiniType, io: "input" | "output"): JsonSchema {
  const id = NAMED.get(schema)?.id;
  if (id) return { $ref: ref(id) };
  const {
    $schema: _dialect,
    $defs: _named,
    ...out
  } = z.toJSONSchema(schema, {
    io,
    metadata: NAMED,
    unrepresentable: "any",
  }) as JsonSchema;
  return relink(out) as JsonSchema;
}

/** zod points a named schema at its own `$defs`; the document keeps them in its components. */
function relink(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(relink);
  if (!node || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    out[k] = k === "$ref" && typeof v === "string" ? v.replace(/^#\/\$defs\//, "#/components/schemas/") : relink(v);
  }
  return out;
}

/** The components: each named schema as a client sends it, the error body with every code the API has. */
export function namedSchemas(): Record<string, JsonSchema> {
  const error = jsonSchema(ErrorBody.shape.error, "output");
  const properties = error.properties as Record<string, JsonSchema>;
  return {
    AgentConfig: withoutDialect(z.toJSONSchema(AgentConfig, { io: "input", unrepresentable: "any" })),
    ErrorBody: {
      type: "object",
      description: "Every error answer: a code to act on and a message to read",
      properties: { error: { ...error, properties: { ...properties, code: { enum: [...ERROR_CODES] } } } },
      required: ["error"],
    },
  };
}

function withoutDialect(schema: unknown): JsonSchema {
  const { $schema: _dialect, ...rest } = schema as JsonSchema;
  return rest;
}
