import { describe, expect, it } from "vitest";
import { AgentConfig } from "../../../shared/config/agent-config.ts";
import { StageConfig } from "../../../shared/config/stage-config.ts";
import { stageValuesSchema } from "../../../shared/stages/stage-fields.ts";
import {
  autoTransition,
  compileTemplate,
  conditionHolds,
  isBlocked,
  missingRequired,
  nextStageId,
  ruleChecks,
} from "../../../shared/stages/stage-machine.ts";
import { PRESET_AGENTS } from "../../../worker/demo/index.ts";

const agent = AgentConfig.parse(PRESET_AGENTS["protocol-designer"]);
const stage = (id: string) => agent.stages.find((s) => s.id === id)!;
const t = { en: "m", "zh-CN": "m" };

describe("stage machine", () => {
  it("turns missing required fields into blocking checks", () => {
    expect(missingRequired(stage("pico"), { population: "kids", intervention: " " })).toEqual([
      "intervention",
      "comparison",
      "outcome",
    ]);
    const checks = ruleChecks(stage("pico"), { population: "kids" });
    expect(checks.filter((c) => !c.passed).map((c) => [c.ruleId, c.action])).toEqual([
      ["required:intervention", "block"],
      ["required:comparison", "block"],
      ["required:outcome", "block"],
    ]);
    expect(isBlocked(checks)).toBe(true);
  });

  it("applies rule kinds with their failure actions: block, warn, log", () => {
    const s = StageConfig.parse({
      id: "s",
      name: t,
      order: 1,
      instruction: "",
      next: null,
      transition: "user_confirm",
      fields: [
        { key: "a", label: t, type: "string" },
        { key: "b", label: t, type: "string" },
      ],
      rules: [
        { id: "r1", kind: "required", field: "a", severity: "error", action: "block", message: t },
        { id: "r2", kind: "max_length", field: "b", value: 3, severity: "warning", action: "warn", message: t },
        { id: "r3", kind: "pattern", field: "b", value: "^[a-z]+$", severity: "info", action: "log", message: t },
        { id: "r4", kind: "pattern", field: "b", value: "([", severity: "info", action: "log", message: t },
      ],
    });
    const checks = ruleChecks(s, { a: "x", b: "TOOLONG" });
    expect(checks.map((c) => [c.ruleId, c.passed])).toEqual([
      ["r1", true],
      ["r2", false],
      ["r3", false],
      ["r4", false],
    ]);
    expect(isBlocked(checks)).toBe(false);
    expect(isBlocked(ruleChecks(s, { b: "ok" }))).toBe(true);
  });

  it("user_confirm never advances by itself; auto does once nothing blocks; condition follows its branches", () => {
    expect(
      autoTransition(stage("question"), { question: { research_question: "a long enough question about something" } }),
    ).toEqual({ advance: false, to: null });
    expect(autoTransition(stage("sample_size"), { sample_size: { n_per_group: 10 } })).toEqual({
      advance: false,
      to: null,
    });
    expect(autoTransition(stage("sample_size"), { sample_size: { n_per_group: 10, n_total: 20 } })).toEqual({
      advance: true,
      to: "endpoints",
    });
    expect(autoTransition(stage("design"), { design: { study_type: "RCT" } })).toEqual({
      advance: true,
      to: "sample_size",
    });
    expect(autoTransition(stage("design"), { design: { study_type: "cohort" } })).toEqual({
      advance: true,
      to: "endpoints",
    });
    expect(autoTransition(stage("design"), { design: {} })).toEqual({ advance: false, to: null });
    expect(nextStageId(stage("pico"), {})).toBe("design");
  });

  it("reads conditions across stages with every operator", () => {
    const ctx = { a: { n: 5, s: "Yes" }, b: {} };
    const c = (field: string, op: any, value?: any) => conditionHolds({ field, op, value, next: "x" }, ctx, "b");
    expect([
      c("a.n", "gt", 4),
      c("a.n", "gte", 5),
      c("a.n", "lt", 5),
      c("a.n", "lte", 5),
      c("a.s", "eq", "yes"),
      c("a.s", "neq", "no"),
      c("a.s", "exists"),
      c("missing", "exists"),
    ]).toEqual([true, true, false, true, true, true, true, false]);
  });

  it("builds a strict, partial extraction schema from the stage's fields", () => {
    const schema = stageValuesSchema(stage("design"));
    expect(schema.safeParse({ study_type: "RCT" }).success).toBe(true);
    expect(schema.safeParse({ study_type: "meta-analysis" }).success).toBe(false);
    expect(schema.safeParse({ allocation_ratio: 50 }).success).toBe(false);
    expect(schema.safeParse({ surprise: 1 }).success).toBe(false);
    expect(schema.safeParse({ blinding: null }).success).toBe(true);
  });

  it("fills templates from the context", () => {
    expect(
      compileTemplate(
        "Q: {{research_question}} / {{pico.population}}",
        { question: { research_question: "Why?" }, pico: { population: ["a", "b"] } },
        "question",
      ),
    ).toBe("Q: Why? / a, b");
  });
});
