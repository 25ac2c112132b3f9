import { describe, expect, it } from "vitest";
import { ANSWER, PROVIDERS, THOUGHT } from "../helpers/providers/index.ts";
import { profileFor, seenBy, siteFor, widgetLoop } from "../helpers/worker/conformance.ts";
import { auth, call, openSession } from "../helpers/worker/client.ts";
import { toChatHistory } from "../../widget/state/history.ts";

const style = (id: string) => PROVIDERS.find((p) => p.id === id)!;
const assistantTurns = (body: { messages: Array<Record<string, unknown>> }) =>
  body.messages.filter((m) => m.role === "assistant");

describe("reasoning sent back where the provider requires it, and only there", () => {
  it("DeepSeek's thinking mode: the loop's second step carries the tool-call turn's reasoning_content", async () => {
    const deepseek = style("deepseek-reasoner");
    const { siteKey, agentId } = await siteFor(deepseek, "loop");
    const { result, state } = await widgetLoop(siteKey, agentId);
    // Without the reasoning the fake answers DeepSeek's 400, and the loop would fail on its second step.
    expect(result.end).toBe("complete");
    expect(result.steps.at(-1)!.answer).toBe(ANSWER);
    const [first, second] = await seenBy(deepseek, "loop");
    expect(assistantTurns(first.body)).toEqual([]);
    expect(assistantTurns(second.body)).toMatchObject([{ tool_calls: [{ function: { name: "knowledge_search" } }] }]);
    expect(String(assistantTurns(second.body)[0].reasoning_content).trim()).toBe(THOUGHT);
    // The session keeps each step's reasoning; the next visitor turn's history sends it again.
    const stored = state.messages.filter((m) => m.role === "assistant");
    expect(stored.map((m) => m.reasoning?.trim())).toEqual([THOUGHT, THOUGHT]);
    const history = toChatHistory(state.messages).filter((m) => m.role === "assistant");
    expect(history[0]).toMatchObject({ tool_calls: [{ function: { name: "knowledge_search" } }] });
    expect(history[0].role === "assistant" && history[0].reasoning_content?.trim()).toBe(THOUGHT);
  });

  it("other providers never receive it (an unknown field some refuse), even when the widget sends it", async () => {
    const qwen = style("qwen");
    const { siteKey, agentId } = await siteFor(qwen, "loop");
    const { result } = await widgetLoop(siteKey, agentId);
    expect(result.end).toBe("complete");
    const [, second] = await seenBy(qwen, "loop");
    expect(assistantTurns(second.body)).toHaveLength(1);
    expect(assistantTurns(second.body)[0]).not.toHaveProperty("reasoning_content");
  });
});

describe("provider profiles in the site config", () => {
  const openai = style("openai");
  const chat = async (siteKey: string, agentId: string) => {
    const s = await openSession(agentId, {}, { siteKey });
    const { res, done } = await call("/v1/chat/completions", {
      method: "POST",
      headers: auth(s.token),
      json: { stream: true, messages: [{ role: "user", content: "hi" }] },
    });
    const body = (await res.json()) as { error: { code: string; message: string } };
    await done();
    return { status: res.status, error: body.error };
  };

  it("an agent that needs tools on a model without them is a config error naming the field", async () => {
    const { siteKey, agentId } = await siteFor(openai, 0, {
      providers: [{ ...profileFor(openai, 0), models: { "gpt-4.1-mini": { tools: false } } }],
    });
    const { status, error } = await chat(siteKey, agentId);
    expect(status).toBe(502);
    expect(error.code).toBe("misconfigured");
    expect(error.message).toContain('providers[0].models["gpt-4.1-mini"]');
    expect(error.message).toContain("text-react");
  });

  it("the same model is fine for a text-ReAct agent, and a fallback without tools is named too", async () => {
    const noTools = { ...profileFor(openai, 0), models: { "gpt-4.1-mini": { tools: false } } };
    const ok = await siteFor(openai, 0, { providers: [noTools] }, { strategy: "text-react" });
    const s = await openSession(ok.agentId, {}, { siteKey: ok.siteKey });
    const { res, done } = await call("/v1/chat/completions", {
      method: "POST",
      headers: auth(s.token),
      json: { stream: true, messages: [{ role: "user", content: "hi" }] },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("data: [DONE]");
    await done();
    const bad = await siteFor(openai, 0, {
      providers: [profileFor(openai, 0), { ...noTools, id: "backup" }],
      fallbacks: [{ provider: "backup", model: "gpt-4.1-mini" }],
    });
    expect((await chat(bad.siteKey, bad.agentId)).error.message).toContain("fallbacks[0]");
  });

  it("a key is a secret's name: a missing secret says which; a key written into the config is refused", async () => {
    const missing = await siteFor(openai, 0, { providers: [{ ...profileFor(openai, 0), keyEnv: "LLM_NOT_SET_KEY" }] });
    const { status, error } = await chat(missing.siteKey, missing.agentId);
    expect([status, error.code]).toEqual([502, "misconfigured"]);
    expect(error.message).toContain("wrangler secret put LLM_NOT_SET_KEY");

    const inline = await siteFor(openai, 0, {
      providers: [{ ...profileFor(openai, 0), apiKey: "sk-live-123" } as never],
    });
    const { res } = await call("/v1/sessions", {
      method: "POST",
      json: { siteKey: inline.siteKey, agentId: inline.agentId },
    });
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/providers\.0/);
    expect(body.error.message).not.toContain("sk-live-123");
  });

  it("a key's secret must be named LLM_…KEY: a site config cannot send the session secret out", async () => {
    const sneaky = await siteFor(openai, 0, { providers: [{ ...profileFor(openai, 0), keyEnv: "SESSION_SECRET" }] });
    const { res } = await call("/v1/sessions", {
      method: "POST",
      json: { siteKey: sneaky.siteKey, agentId: sneaky.agentId },
    });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("keyEnv");
  });
});
