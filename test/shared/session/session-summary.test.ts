import { describe, expect, it } from "vitest";
import { emptySession, type SessionState } from "../../../shared/session/session.ts";
import { sessionSteps, summarizeSession } from "../../../shared/session/session-summary.ts";

const msg = (id: string, role: "user" | "assistant" | "tool", content: string, extra: object = {}) => ({
  id,
  role,
  content,
  at: 1_000 + Number(id.replace(/\D/g, "") || 0),
  ...extra,
});
const completion = (id: string, replyId: string, purpose: string, at: number, firstByteMs: number) => ({
  id,
  at,
  kind: "completion",
  name: "m",
  ms: 50,
  ok: true,
  detail: { replyId, purpose, promptTokens: 10, completionTokens: 5, firstByteMs },
});

describe("summarizeSession: the index row folded from a session's state", () => {
  const state: SessionState = {
    ...emptySession(),
    sessionId: "s1",
    siteKey: "site",
    agentId: "medical-qa",
    locale: "zh-CN",
    openedAt: 900,
    messages: [
      msg("u1", "user", "My arm itches"),
      msg("a1", "assistant", "", {
        toolCalls: [{ id: "c", type: "function", function: { name: "k", arguments: "{}" } }],
      }),
      msg("t1", "tool", "{}"),
      msg("a2", "assistant", "Try a cool compress."),
      msg("u3", "user", "Observation: a tool result, not the visitor"),
      msg("a4", "assistant", "Half a rep", { status: "interrupted" }),
      msg("a5", "assistant", "A quick answer"),
    ],
    trace: [
      completion("c1", "a1", "chat", 1_001, 120),
      { id: "tool1", at: 1_002, kind: "tool", name: "k", ms: 5, ok: false },
      completion("c2", "a2", "chat", 1_003, 80),
      completion("c3", "x", "classify", 1_004, 30),
      completion("c5", "a5", "quick", 1_009, 40),
      { id: "g", at: 1_010, kind: "guard", ok: true },
    ],
    usage: { promptTokens: 40, completionTokens: 20, totalTokens: 60 },
    feedback: { a2: { rating: "up", at: 2_000 }, a5: { rating: "down", comment: "no", at: 2_100 } },
    escalations: [],
    advice: [],
  } as unknown as SessionState;

  it("counts what the visitor read and wrote, answers by route, feedback, interruptions", () => {
    expect(summarizeSession(state)).toEqual({
      sessionId: "s1",
      agentId: "medical-qa",
      locale: "zh-CN",
      openedAt: 900,
      lastActivityAt: 2_100,
      messages: 4,
      tokens: 60,
      feedbackUp: 1,
      feedbackDown: 1,
      advice: 0,
      escalated: false,
      interrupted: true,
      quickAnswers: 1,
      reactAnswers: 1,
      handledBy: "agent",
      firstText: "My arm itches",
      handler: { kind: "agent" },
      personRequest: null,
    });
  });

  it("keeps completions and tool calls as steps: first-byte times, tokens, failures, which ones were answers", () => {
    const steps = sessionSteps(state);
    expect(steps.map((s) => [s.id, s.kind, s.purpose, s.answer, s.ok])).toEqual([
      ["c1", "completion", "chat", false, true],
      ["tool1", "tool", "", false, false],
      ["c2", "completion", "chat", true, true],
      ["c3", "completion", "classify", false, true],
      ["c5", "completion", "quick", true, true],
    ]);
    expect(steps[0]).toMatchObject({ firstByteMs: 120, tokens: 15 });
  });

  it("counts none of the browser's own steps, nor reads its last activity from them", () => {
    const browser = {
      id: "trace:c",
      at: 9_999_999,
      kind: "tool",
      name: "k",
      ms: 5,
      ok: false,
      detail: { side: "client" },
    };
    const stopped = { id: "trace:stopped:a1", at: 9_999_999, kind: "stopped", ok: true, detail: { side: "client" } };
    const withBrowser = { ...state, trace: [...state.trace, browser, stopped] } as SessionState;
    expect(sessionSteps(withBrowser)).toEqual(sessionSteps(state));
    expect(summarizeSession(withBrowser).lastActivityAt).toBe(2_100);
  });
});
