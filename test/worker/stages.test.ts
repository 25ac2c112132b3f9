import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { AgentConfig } from "../../shared/config/agent-config.ts";
import { auth, call, openSession } from "../helpers/worker/client.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { PRESET_AGENTS } from "../../worker/demo/index.ts";
import { sessionRoom } from "../../worker/objects.ts";

afterEach(() => {
  vi.restoreAllMocks();
  clearConfigCache();
});

const json = async (r: Response) => (await r.json()) as any;
const state = (sid: string) => sessionRoom(env, sid).getState();

async function open() {
  const s = await openSession("protocol-designer");
  const h = auth(s.token);
  const base = `/v1/sessions/${s.sessionId}`;
  return {
    s,
    record: (values: Record<string, unknown>) =>
      call("/v1/tools/record_stage_data", { method: "POST", headers: h, json: { arguments: { values } } }),
    complete: (stageId: string) => call(`${base}/stages/${stageId}/complete`, { method: "POST", headers: h }),
    patch: (body: unknown) => call(`${base}/context`, { method: "PATCH", headers: h, json: body }),
    action: (cardId: string, body: unknown) =>
      call(`${base}/actions/${cardId}`, { method: "POST", headers: h, json: body }),
    get: (path: string) => call(`${base}${path}`, { headers: h }),
  };
}

const QUESTION = "Does daily emollient use reduce eczema flares in children with moderate atopic dermatitis?";
const PICO = {
  population: "Children 2-10 with moderate eczema",
  intervention: "Daily emollient",
  outcome: "Flares over 6 months",
};

describe("agent config validation", () => {
  it("names the broken field of a config", () => {
    const broken = structuredClone(PRESET_AGENTS["protocol-designer"]) as any;
    broken.stages[1].transition = "sometimes";
    const r = AgentConfig.safeParse(broken);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].path.join(".")).toBe("stages.1.transition");
  });

  it("answers a broken config in KV with a clear error, not a broken widget", async () => {
    const broken = structuredClone(PRESET_AGENTS["protocol-designer"]) as any;
    delete broken.stages[0].fields[0].type;
    await env.CONFIG.put("agent:protocol-designer", JSON.stringify(broken));
    clearConfigCache();
    const { res } = await call("/v1/sessions", {
      method: "POST",
      json: { siteKey: "demo-site-key-0001", agentId: "protocol-designer" },
    });
    expect(res.status).toBe(502);
    const body = await json(res);
    expect(body.error.code).toBe("misconfigured");
    expect(body.error.message).toContain("stages.0.fields.0.type");
    await env.CONFIG.delete("agent:protocol-designer");
  });
});

describe("stage machine", () => {
  it("starts at the first stage, and the model's extraction is validated against that stage's schema", async () => {
    const p = await open();
    expect((await state(p.s.sessionId)).stage).toEqual({ current: "question", completed: [], done: false });
    const bad = await p.record({ population: "x" });
    expect(bad.res.status).toBe(400);
    expect((await json(bad.res)).error.message).toContain("unknown keys population");
    const wrongType = await p.record({ research_question: 42 });
    expect(wrongType.res.status).toBe(400);
    const ok = await p.record({ research_question: QUESTION });
    const body = await json(ok.res);
    expect(body.result).toMatchObject({
      recorded: ["research_question"],
      stage: "question",
      missing: [],
      current_stage: "question",
    });
    expect(body.events.map((e: any) => e.type)).toEqual(["context.updated"]);
    expect((await state(p.s.sessionId)).context.question.research_question).toBe(QUESTION);
  });

  it(
    "user_confirm: blocks on a missing required field, warns on a short " + "question, then moves on when confirmed",
    async () => {
      const p = await open();
      const blocked = await json((await p.complete("question")).res);
      expect(blocked.completed).toBe(false);
      expect(blocked.checks.find((c: any) => !c.passed)).toMatchObject({
        ruleId: "required:research_question",
        action: "block",
      });
      await p.record({ research_question: "Emollients for eczema?" });
      const done = await json((await p.complete("question")).res);
      expect(done.completed).toBe(true);
      expect(done.checks.find((c: any) => c.ruleId === "question-length")).toMatchObject({
        passed: false,
        action: "warn",
      });
      expect(done.checks.find((c: any) => c.ruleId === "question-answerable")).toMatchObject({ passed: true });
      expect(done.stage).toEqual({ current: "pico", completed: ["question"], done: false });
      const trace = (await json((await p.get("/trace")).res)).trace;
      expect(trace.filter((t: any) => t.kind === "stage_complete").map((t: any) => t.ok)).toEqual([false, true]);
    },
  );

  it("condition: an RCT goes on to sample size, another design straight to endpoints", async () => {
    for (const [type, next] of [
      ["RCT", "sample_size"],
      ["cohort", "endpoints"],
    ]) {
      const p = await open();
      await p.record({ research_question: QUESTION });
      await p.complete("question");
      await p.record(PICO);
      await p.patch({
        stageId: "pico",
        field: "comparison",
        value: "Usual care",
        baseVersion: (await state(p.s.sessionId)).contextVersion,
      });
      expect((await json((await p.complete("pico")).res)).completed).toBe(true);
      const r = await json((await p.record({ study_type: type })).res);
      expect(r.result.current_stage).toBe(next);
      expect(r.events.map((e: any) => e.type)).toEqual(["context.updated", "stage.changed"]);
    }
  });

  it(
    "auto: the sample-size stage advances once its required values are " +
      "recorded; the workflow ends after endpoints",
    async () => {
      const p = await open();
      await p.record({ research_question: QUESTION });
      await p.complete("question");
      await p.record({ ...PICO, comparison: "Usual care" });
      await p.complete("pico");
      await p.record({ study_type: "RCT" });
      expect((await json((await p.record({ n_per_group: 152 })).res)).result.current_stage).toBe("sample_size");
      expect((await json((await p.record({ n_total: 304 })).res)).result.current_stage).toBe("endpoints");
      await p.record({ primary_endpoint: "Flares over 6 months" });
      const end = await json((await p.complete("endpoints")).res);
      expect(end.stage).toEqual({
        current: null,
        completed: ["question", "pico", "design", "sample_size", "endpoints"],
        done: true,
      });
      expect((await p.record({ primary_endpoint: "x" })).res.status).toBe(409);
    },
  );

  it("refuses an edit based on an old version (409) and overwrites nothing", async () => {
    const p = await open();
    await p.record({ research_question: QUESTION });
    const v = (await state(p.s.sessionId)).contextVersion;
    expect((await p.patch({ stageId: "question", field: "rationale", value: "mine", baseVersion: v })).res.status).toBe(
      200,
    );
    const stale = await p.patch({ stageId: "question", field: "rationale", value: "theirs", baseVersion: v });
    expect(stale.res.status).toBe(409);
    expect((await json(stale.res)).error.code).toBe("conflict");
    expect((await state(p.s.sessionId)).context.question.rationale).toBe("mine");
    const wrong = await p.patch({ stageId: "question", field: "nope", value: "x", baseVersion: v + 1 });
    expect(wrong.res.status).toBe(400);
    const future = await p.patch({ stageId: "endpoints", field: "primary_endpoint", value: "x", baseVersion: v + 1 });
    expect(future.res.status).toBe(409);
  });

  it("action cards: an api_call runs through the worker and its result is mapped into the context", async () => {
    const p = await open();
    await p.record({ research_question: QUESTION });
    await p.complete("question");
    await p.record(PICO);
    const r = await json((await p.action("registry", { stageId: "pico" })).res);
    expect(typeof r.result.similar_trials).toBe("number");
    const s = await state(p.s.sessionId);
    expect(s.context.pico.similar_trials).toBe(r.result.similar_trials);
    expect(s.actions[0]).toMatchObject({ stageId: "pico", cardId: "registry" });
    expect((await p.action("nope", { stageId: "pico" })).res.status).toBe(404);
    expect((await p.action("pubmed", { stageId: "pico" })).res.status).toBe(400);
  });

  it("a prompt rule that cannot be judged warns instead of blocking", async () => {
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("down"));
    const p = await open();
    await call("/v1/tools/record_stage_data", {
      method: "POST",
      headers: auth(p.s.token),
      json: { arguments: { values: { research_question: QUESTION } } },
    });
    const { res } = await call(
      `/v1/sessions/${p.s.sessionId}/stages/question/complete`,
      { method: "POST", headers: auth(p.s.token) },
      { LLM_BASE_URL: "https://provider.test/v1" },
    );
    const body = await json(res);
    expect(body.completed).toBe(true);
    expect(body.checks.find((c: any) => c.ruleId === "question-answerable")).toMatchObject({
      passed: false,
      action: "warn",
    });
  });

  it(
    "puts the current stage, its values and what is missing into the system " + "prompt, with the stage's tools",
    async () => {
      const spy = vi.spyOn(globalThis, "fetch").mockResolvedValue(
        Response.json({
          id: "x",
          object: "chat.completion",
          model: "m",
          choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
        }),
      );
      const p = await open();
      await p.record({ research_question: QUESTION });
      await p.complete("question");
      await p.record({ population: "Children" });
      const { done } = await call(
        "/v1/chat/completions",
        { method: "POST", headers: auth(p.s.token), json: { messages: [{ role: "user", content: "next" }] } },
        { LLM_BASE_URL: "https://provider.test/v1" },
      );
      await done();
      const sent = JSON.parse((spy.mock.calls[0][1] as RequestInit).body as string);
      const system = sent.messages[0].content as string;
      expect(system).toContain("Current stage: PICO");
      expect(system).toContain("Still missing: intervention, comparison, outcome");
      expect(system).toContain(QUESTION);
      const extract = sent.tools.find((t: any) => t.function.name === "record_stage_data");
      expect(Object.keys(extract.function.parameters.properties.values.properties)).toEqual([
        "population",
        "intervention",
        "comparison",
        "outcome",
        "similar_trials",
      ]);
    },
  );

  it("hides stage instructions and rule prompts from the browser", async () => {
    const p = await open();
    const agent = p.s.agent as any;
    expect(agent.stages).toHaveLength(5);
    expect(agent.stages.every((s: any) => s.instruction === "")).toBe(true);
    expect(JSON.stringify(agent)).not.toContain("specific enough to be answered");
  });
});
