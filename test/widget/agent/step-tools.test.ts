import { describe, expect, it } from "vitest";
import type { ToolCall } from "../../../shared/chat/chat.ts";
import { messageEvent } from "../../../shared/session/events.ts";
import { traceEvent } from "../../../shared/chat/step-events.ts";
import { foldSession } from "../../../shared/session/session.ts";
import { TOOLS } from "../../../shared/tools/index.ts";
import { runAgentLoop } from "../../../widget/agent/loop.ts";
import { pendingStep, runStepTools } from "../../../widget/agent/step-tools.ts";
import { dermConsultScript } from "../../../worker/demo/index.ts";
import { scriptedModel, type ScriptedModelLog } from "../../helpers/scripted-model.ts";
import type { SessionEvent, StoredMessage } from "../../../shared/session/session-events.ts";

const at = 1;
const call = (id: string, name: string, args: object = {}): ToolCall => ({
  id,
  type: "function",
  function: { name, arguments: JSON.stringify(args) },
});
const user = (id: string, content: string): StoredMessage => ({ id, role: "user", content, at });
const step = (id: string, calls: ToolCall[], over: Partial<StoredMessage> = {}): StoredMessage => ({
  id,
  role: "assistant",
  content: "",
  toolCalls: calls,
  status: "complete",
  at,
  ...over,
});
const result = (id: string, toolCallId: string, content = "{}"): StoredMessage => ({
  id,
  role: "tool",
  content,
  toolCallId,
  at,
});
const stateOf = (messages: StoredMessage[], extra: SessionEvent[] = []) =>
  foldSession([...messages.map((m) => messageEvent(m)), ...extra]);

describe("pendingStep: where a turn stands when the page comes back", () => {
  const search = call("c1", "knowledge_search", { query: "acne" });

  it("a stored step with tools asked for, none or some answered, is pending; its turn's earlier steps count", () => {
    const none = pendingStep(stateOf([user("u", "acne?"), step("s1", [search])]), 6);
    expect(none).toMatchObject({ at: 1, before: 0, step: { id: "s1", toolCalls: [search] } });
    const two = [call("c2", "record_advice"), call("c3", "record_advice")];
    const some = pendingStep(
      stateOf([user("u", "rash"), step("s0", [search]), result("r1", "c1"), step("s1", two), result("r2", "c2")]),
      6,
    );
    expect(some).toMatchObject({ at: 3, before: 1, step: { id: "s1" } });
  });

  it(
    "nothing is pending after an answer, a visitor's message, " + "ask_followup, a Stop, a cut step or the step limit",
    () => {
      const followup = call("c9", "ask_followup", { question: "Where?" });
      const stopped = traceEvent("trace:stopped:s1", { kind: "stopped", ok: true });
      const cases = [
        stateOf([user("u", "hi"), { ...step("s1", []), content: "Hello" }]),
        stateOf([user("u", "hi")]),
        stateOf([user("u", "hi"), step("s1", [followup]), result("r", "c9")]),
        stateOf([user("u", "acne?"), step("s1", [search])], [stopped]),
        stateOf([user("u", "acne?"), step("s1", [search], { status: "interrupted" })]),
        stateOf([
          user("u", "acne?"),
          step("s0", [call("c0", "knowledge_search")]),
          result("r0", "c0"),
          step("s1", [search]),
        ]),
      ];
      expect(cases.map((s, i) => pendingStep(s, i === 5 ? 2 : 6))).toEqual([null, null, null, null, null, null]);
    },
  );
});

describe("runStepTools: each tool call id runs once", () => {
  it("a call answered in the log is not run; the others run and are recorded as they finish", async () => {
    const ran: string[] = [];
    const recorded: SessionEvent[][] = [];
    const calls = [call("c1", "knowledge_search", { query: "a" }), call("c2", "knowledge_search", { query: "b" })];
    const results = await runStepTools(calls, "s1", {
      tools: TOOLS,
      clientImpls: {},
      runEdge: async (_name, input) => {
        ran.push((input as { query: string }).query);
        return { hits: [] };
      },
      log: [step("s1", calls), result("r1", "c1", '{"hits":["kept"]}')],
      asMessages: true,
      record: (events) => recorded.push(events),
    });
    expect(ran).toEqual(["b"]);
    expect(results.map((r) => [r.call.id, r.observation])).toEqual([
      ["c1", '{"hits":["kept"]}'],
      ["c2", '{"hits":[]}'],
    ]);
    expect(results[0].messageId).toBe("r1");
    const messages = recorded.flat().map((e) => (e.data as { message?: StoredMessage }).message);
    expect(messages.map((m) => m?.toolCallId)).toEqual(["c2"]);
    expect(messages[0]?.id).toBe(results[1].messageId);
  });

  it("a Stop while tools run leaves the marker that keeps a restored page from going on", async () => {
    const ctrl = new AbortController();
    const recorded: SessionEvent[] = [];
    const calls = [call("c1", "knowledge_search", { query: "a" })];
    const running = runStepTools(calls, "s7", {
      tools: TOOLS,
      clientImpls: {},
      runEdge: () => new Promise(() => {}),
      signal: ctrl.signal,
      log: [],
      asMessages: true,
      record: (events) => recorded.push(...events),
    });
    ctrl.abort();
    expect((await running)[0].outcome).toBe("aborted");
    const state = stateOf([user("u", "acne?"), step("s7", calls)], recorded);
    expect(state.trace.map((t) => t.id)).toContain("trace:stopped:s7");
    expect(pendingStep(state, 6)).toBeNull();
  });
});

describe("the loop goes on from a pending step", () => {
  it("derm consult: the stored record_advice step, one result already in the log -> the closing answer", async () => {
    const calls = [
      call("call_a", "record_advice", { title: "A", content: "a", evidence: ["e"], severity: "info", category: "x" }),
      call("call_b", "record_advice", { title: "B", content: "b", evidence: ["e"], severity: "info", category: "x" }),
    ];
    const messages = [user("u", "I have a red itchy rash on my arm"), step("s1", calls), result("r_a", "call_a")];
    const pending = pendingStep(stateOf(messages), 6)!;
    const log: ScriptedModelLog[] = [];
    const advised: string[] = [];
    const out = await runAgentLoop({
      strategy: "native",
      history: [{ id: "u", role: "user", content: messages[0].content }],
      complete: scriptedModel(dermConsultScript, { tools: ["record_advice"], log }),
      execute: (c, id) =>
        runStepTools(c, id, {
          tools: TOOLS,
          clientImpls: { record_advice: (input: never) => void advised.push((input as { title: string }).title) },
          runEdge: async () => null,
          log: messages,
          asMessages: true,
          record: () => {},
        }),
      maxSteps: 6 - pending.before,
      newId: () => "new",
      pending: pending.step,
    });
    expect(out.end).toBe("complete");
    // Only the unanswered call ran; one completion followed, with the step and both results.
    expect(advised).toEqual(["B"]);
    expect(log).toHaveLength(1);
    expect(out.added.map((m) => [m.role, m.id])).toEqual([
      ["assistant", "s1"],
      ["tool", "r_a"],
      ["tool", expect.any(String)],
      // The step after a tool step is named after it: a second tab going on from s1 asks for the same reply.
      ["assistant", "s1+"],
    ]);
    expect(out.added.map((m) => (m.role === "tool" ? m.tool_call_id : ""))).toEqual(["", "call_a", "call_b", ""]);
    expect(String(out.added.at(-1)!.content)).toContain("two advice cards");
  });
});
