import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../../shared/chat/chat.ts";
import { reactCallId } from "../../../shared/chat/client-steps.ts";
import { TOOLS } from "../../../shared/tools/index.ts";
import { createClientTools } from "../../../widget/agent/client-tools.ts";
import type { Complete } from "../../../widget/agent/completion.ts";
import { executeToolCalls } from "../../../widget/agent/executor.ts";
import { runAgentLoop, type LoopOptions, type StepView } from "../../../widget/agent/loop.ts";
import { calledTool } from "../../../widget/agent/stop-conditions.ts";
import { dermConsultScript, medicalQaScript, salesCoachScript } from "../../../worker/demo/index.ts";
import { scriptedModel } from "../../helpers/scripted-model.ts";
import type { Advice } from "../../../shared/session/session-events.ts";

let n = 0;
const newId = () => `id${++n}`;
const ask = (content: string): ChatMessage[] => [{ id: "u", role: "user", content }];

function setup(
  over: Partial<LoopOptions> & { complete: Complete },
  edge: (name: string, input: any) => Promise<unknown> = async () => ({ hits: [] }),
) {
  const advice: Advice[] = [];
  const clientImpls = createClientTools({ messageId: () => "m", onAdvice: (a) => advice.push(a) });
  const steps: StepView[] = [];
  const opts: LoopOptions = {
    strategy: "native",
    history: ask("hi"),
    maxSteps: 6,
    newId,
    execute: (calls) =>
      executeToolCalls(calls, {
        tools: TOOLS,
        clientImpls,
        runEdge: (name, input) => edge(name, input),
        timeoutMs: 200,
      }),
    hooks: { onStep: (v) => steps.push(v) },
    ...over,
  };
  return { opts, advice, steps };
}

describe("runAgentLoop (native)", () => {
  it("derm consult: answer + two record_advice calls -> observations -> closing answer", async () => {
    const tools = ["knowledge_search", "record_advice", "ask_followup"];
    const { opts, advice } = setup({
      complete: scriptedModel(dermConsultScript, { tools }),
      history: ask("I have a red itchy rash on my arm"),
    });
    const result = await runAgentLoop(opts);
    expect(result.end).toBe("complete");
    expect(result.added.map((m) => m.role)).toEqual(["assistant", "tool", "tool", "assistant"]);
    expect(advice.map((a) => [a.title, a.severity])).toEqual([
      ["Soothe and protect the skin", "info"],
      ["When to see a dermatologist", "caution"],
    ]);
    expect(advice[0].evidence.length).toBeGreaterThan(0);
    const observation = JSON.parse(String(result.added[1].content));
    expect(observation).toMatchObject({ recorded: true });
    expect(String(result.added[3].content)).toContain("two advice cards");
  });

  it(
    "medical Q&A as plain ReAct: knowledge_search, web_search, then the " + "answer; the model sees each observation",
    async () => {
      const seen: ChatMessage[][] = [];
      const model = scriptedModel(medicalQaScript, { tools: ["knowledge_search", "web_search", "ask_followup"] });
      const complete: Complete = (req) => (seen.push(req.messages), model(req));
      const { opts } = setup({ complete, history: ask("Can I take ibuprofen with paracetamol?") }, async (name) => ({
        from: name,
      }));
      const result = await runAgentLoop(opts);
      expect(result.end).toBe("complete");
      expect(seen).toHaveLength(3);
      expect(seen[2].filter((m) => m.role === "tool").map((m) => m.content)).toEqual([
        '{"from":"knowledge_search"}',
        '{"from":"web_search"}',
      ]);
      expect(String(result.added.at(-1)!.content)).toContain("ibuprofen");
    },
  );

  it("feeds invalid arguments back as an observation, and the model corrects itself", async () => {
    let call = 0;
    const complete: Complete = async (req) => {
      call++;
      if (call === 1)
        return {
          text: "",
          finishReason: "tool_calls",
          toolCalls: [
            { id: "c1", type: "function", function: { name: "knowledge_search", arguments: '{"query": 7}' } },
          ],
        };
      if (call === 2) {
        const obs = req.messages.at(-1)!;
        expect(obs).toMatchObject({ role: "tool", tool_call_id: "c1" });
        expect(String(obs.content)).toContain("query: expected string");
        return {
          text: "",
          finishReason: "tool_calls",
          toolCalls: [
            { id: "c2", type: "function", function: { name: "knowledge_search", arguments: '{"query": "rash"}' } },
          ],
        };
      }
      return { text: "Done.", finishReason: "stop", toolCalls: [] };
    };
    const edgeCalls: unknown[] = [];
    const { opts } = setup({ complete }, async (_n, input) => (edgeCalls.push(input), { hits: [] }));
    const result = await runAgentLoop(opts);
    expect(result.end).toBe("complete");
    expect(edgeCalls).toEqual([{ query: "rash" }]);
  });

  it("ends gracefully at the step limit, with every tool call answered", async () => {
    const complete: Complete = async (req) => ({
      text: "",
      finishReason: "tool_calls",
      toolCalls: [
        {
          id: `c${req.replyId}`,
          type: "function",
          function: { name: "knowledge_search", arguments: '{"query":"again"}' },
        },
      ],
    });
    const { opts } = setup({ complete, maxSteps: 3 });
    const result = await runAgentLoop(opts);
    expect(result.end).toBe("step_limit");
    expect(result.steps).toHaveLength(3);
    expect(result.added.filter((m) => m.role === "tool")).toHaveLength(3);
  });

  it("stops after ask_followup, so the visitor answers the question", async () => {
    const tools = ["knowledge_search", "record_advice", "ask_followup"];
    const { opts } = setup({
      complete: scriptedModel(dermConsultScript, { tools }),
      history: ask("hello"),
      stopWhen: [calledTool("ask_followup")],
    });
    const result = await runAgentLoop(opts);
    expect(result.end).toBe("stopped");
    expect(result.added.map((m) => m.role)).toEqual(["assistant", "tool"]);
  });

  it("aborts a running stream and pending tools, keeping what was shown", async () => {
    const ctrl = new AbortController();
    const complete = scriptedModel(dermConsultScript, { tools: ["record_advice"], delayMs: 50 });
    const { opts } = setup({ complete, history: ask("rash"), signal: ctrl.signal });
    setTimeout(() => ctrl.abort(), 10);
    const result = await runAgentLoop(opts);
    expect(result.end).toBe("aborted");

    const ctrl2 = new AbortController();
    const toolCall: Complete = async () => ({
      text: "Checking.",
      finishReason: "tool_calls",
      toolCalls: [{ id: "c", type: "function", function: { name: "knowledge_search", arguments: '{"query":"x"}' } }],
    });
    const second = setup({ complete: toolCall, signal: ctrl2.signal }, () => new Promise(() => {}));
    second.opts.execute = (calls) =>
      executeToolCalls(calls, {
        tools: TOOLS,
        clientImpls: {},
        runEdge: () => new Promise(() => {}),
        signal: ctrl2.signal,
      });
    setTimeout(() => ctrl2.abort(), 10);
    const r2 = await runAgentLoop(second.opts);
    expect(r2.end).toBe("aborted");
    expect(r2.added.map((m) => m.role)).toEqual(["assistant", "tool"]);
    expect(r2.added[1].content).toContain("stopped by the visitor");
  });
});

describe("runAgentLoop (text ReAct)", () => {
  it("runs Action / Observation / Final Answer, showing reasoning and only the final answer", async () => {
    const { opts, steps } = setup(
      {
        strategy: "text-react",
        complete: scriptedModel(salesCoachScript, { tools: [] }),
        history: ask("A clinic asks whether our moisturiser suits eczema patients"),
      },
      async () => ({ hits: [{ title: "Eczema leaflet" }] }),
    );
    const result = await runAgentLoop(opts);
    expect(result.end).toBe("complete");
    expect(result.added.map((m) => m.role)).toEqual(["assistant", "user", "assistant"]);
    expect(String(result.added[1].content)).toMatch(/^Observation: \{"hits"/);
    const last = steps.at(-1)!;
    expect(last.answer).toMatch(/^\*\*Talking points\*\*/);
    expect(last.reasoning).toContain("leaflet supports");
    expect(steps.some((s) => s.answer.includes("Action"))).toBe(false);
    // The call's id is the one the worker accepts a trace step of (shared/chat/client-steps.ts).
    const acted = steps.find((s) => s.toolCalls.length)!;
    expect(acted.toolCalls[0].id).toBe(reactCallId(acted.id));
  });

  it("asks again for valid JSON when the Action Input is malformed", async () => {
    const replies = ["Thought: t\nAction: knowledge_search\nAction Input: {query: nope", "Final Answer: ok"];
    const sent: ChatMessage[][] = [];
    const complete: Complete = async (req) => (
      sent.push(req.messages),
      { text: replies[sent.length - 1], toolCalls: [], finishReason: "stop" }
    );
    const { opts } = setup({ strategy: "text-react", complete });
    const result = await runAgentLoop(opts);
    expect(result.end).toBe("complete");
    expect(String(sent[1].at(-1)!.content)).toContain("not a valid JSON object");
  });
});
