import { describe, expect, it } from "vitest";
import { parseToolInput, type ToolDefinition } from "../../../shared/tools/tool.ts";
import { classifyIntent } from "../../../shared/tools/classify-intent.ts";
import { TOOLS as ZOD_TOOLS } from "../../../shared/tools/index.ts";
import { toolSchemas } from "../../../scripts/tool-schemas-plugin.ts";
import type { InputSchema } from "../../../widget/agent/input-check.ts";
import { classifyIntent as checkedClassifier, TOOLS } from "../../../widget/agent/tool-checks.ts";

/**
 * The widget checks tool arguments against JSON schemas the build derives from the zod schemas
 * (scripts/tool-schemas-plugin.ts), so no zod ships to the browser. Here every tool's browser check
 * (as the tool runtime has it, through the same plugin) meets its zod schema on arguments made from
 * the schema itself: a valid call, then every property missing, null, of each wrong type and at and
 * past each bound, plus unknown keys and non-objects. Both must agree on valid or not, on the value a
 * tool receives (defaults filled, unknown keys dropped) and on the reason the model reads.
 */
const zodTools: ToolDefinition[] = [...Object.values(ZOD_TOOLS), classifyIntent];
const checked = { ...TOOLS, [checkedClassifier.name]: checkedClassifier };

const OTHERS: unknown[] = [
  ...[undefined, null, true, 0, -1, 1.5, 2 ** 60, "", "x", "😀", [], ["x"], [1], {}, { a: 1 }],
  ...[{ length: 3 }, { length: "x" }, { length: 99999 }],
];
const text = (n: number, ch = "a") => ch.repeat(Math.max(0, n));

/** A value the schema accepts. */
function valid(s: InputSchema): unknown {
  if (s.enum) return s.enum[0];
  if (s.anyOf) return valid(s.anyOf[0]);
  switch (s.type) {
    case "object":
      return Object.fromEntries((s.required ?? []).map((k) => [k, valid(s.properties![k])]));
    case "array":
      return [];
    case "string":
      return text(s.minLength ?? 1);
    case "number":
    case "integer":
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 / 64 : 1);
    case "boolean":
      return true;
    default:
      return null;
  }
}

/** Values at and around what the schema allows, and of every other kind. */
function candidates(s: InputSchema): unknown[] {
  const out = [...OTHERS, valid(s)];
  for (const v of s.enum ?? []) out.push(v, `${String(v)}x`);
  for (const b of s.anyOf ?? []) out.push(...candidates(b));
  for (const n of [s.minLength, s.maxLength]) {
    if (n !== undefined)
      out.push(text(n - 1), text(n), text(n + 1), text(n - 1, "😀"), text(n, "😀"), text(n + 1, "😀"));
  }
  for (const n of [s.minimum, s.maximum, s.exclusiveMinimum, s.exclusiveMaximum]) {
    if (n !== undefined) out.push(n - 1, n - 1 / 64, n, n + 1 / 64, n + 1);
  }
  if (s.type === "integer") out.push(Number.MAX_SAFE_INTEGER + 2, Number.MIN_SAFE_INTEGER - 2, 3.5);
  if (s.maxItems !== undefined && s.items) {
    const item = valid(s.items);
    out.push(Array(s.maxItems).fill(item), Array(s.maxItems + 1).fill(item), Array(s.maxItems + 1).fill(7));
  }
  if (s.items) out.push(...candidates(s.items).map((x) => [valid(s.items!), x]));
  if (s.additionalProperties) out.push(...candidates(s.additionalProperties).map((x) => ({ k: x })));
  return out;
}

/** Whole argument objects: the valid one, each property replaced by each of its candidates, and more. */
function argumentSets(s: InputSchema): unknown[] {
  const base = valid(s) as Record<string, unknown>;
  const sets: unknown[] = [base, { ...base, extra: 1 }, [], null, "x", 3];
  const full = { ...base };
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    full[k] = valid(p);
    const { [k]: _gone, ...without } = base;
    sets.push(without);
    for (const x of candidates(p)) sets.push({ ...base, [k]: x });
  }
  sets.push(full, { ...full, extra: "x" });
  return sets;
}

describe("the widget's tool input checks (JSON Schema from zod at build time) agree with zod", () => {
  it("covers every tool the widget may check, with the same side", () => {
    expect(Object.keys(checked).sort()).toEqual(zodTools.map((t) => t.name).sort());
    for (const t of zodTools) expect(checked[t.name].runsOn).toBe(t.runsOn);
  });

  for (const tool of zodTools) {
    it(`${tool.name}: same verdict, value and reason on every argument set`, () => {
      const schema = toolSchemas()[tool.name].schema;
      let accepted = 0;
      let refused = 0;
      for (const args of argumentSets(schema)) {
        for (const sent of [args, JSON.stringify(args ?? null)]) {
          const want = parseToolInput(tool, sent);
          expect(parseToolInput(checked[tool.name], sent), JSON.stringify(sent)).toEqual(want);
          if (want.ok) accepted++;
          else refused++;
        }
      }
      // Both sides of the line were tried, not only refusals.
      expect(accepted).toBeGreaterThan(2);
      expect(refused).toBeGreaterThan(10);
    });
  }

  it("fills defaults and drops unknown keys as zod does (sample_size)", () => {
    const got = parseToolInput(checked.sample_size, '{"outcome":"means","effect_size":0.5,"note":"x"}');
    expect(got).toEqual({
      ok: true,
      value: { outcome: "means", effect_size: 0.5, alpha: 0.05, power: 0.8, allocation_ratio: 1, dropout: 0 },
    });
  });

  it("words a refusal for the model as zod's issues are worded", () => {
    const got = parseToolInput(checked.ask_followup, { question: "", options: Array(7).fill("a"), missing: 3 });
    expect(got).toEqual({
      ok: false,
      error:
        "Invalid arguments for ask_followup: question: must have at least 1 characters; " +
        "options: must have at most 6 items; missing: expected string",
    });
  });
});

describe("the build's derivation of the schemas", () => {
  it("refuses a schema with a keyword the widget does not check", async () => {
    const { z } = await import("zod/mini");
    const { toolSchemasFor } = await import("../../../scripts/tool-schemas-plugin.ts");
    const patterned: ToolDefinition = {
      name: "patterned",
      runsOn: "client",
      description: "",
      input: z.object({ code: z.string().check(z.regex(/^[A-Z]+$/)) }),
    };
    expect(() => toolSchemasFor([patterned])).toThrow(/patterned\.code: "(pattern|format)" is not checked/);
  });
});
