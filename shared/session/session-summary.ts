import type { SessionState } from "./session.ts";
import type { Handler, PersonRequest } from "../takeover/takeover-state.ts";

/**
 * One row of a site's conversation index (worker/site-index): what the console lists, filters and
 * searches without opening the session. Folded from the session's state by `summarizeSession`, so
 * the index and the session can never disagree about what a conversation holds.
 */
export interface SessionSummary {
  sessionId: string;
  agentId: string;
  locale: string;
  openedAt: number;
  lastActivityAt: number;
  /** The visitor's messages and the assistant's replies with text (tool results are not messages). */
  messages: number;
  tokens: number;
  feedbackUp: number;
  feedbackDown: number;
  advice: number;
  escalated: boolean;
  /** A reply was cut before its end and not completed by a retry. */
  interrupted: boolean;
  /** Answers by route: the router's quick path, or the agent loop (ReAct). */
  quickAnswers: number;
  reactAnswers: number;
  /** Who answered: the agent; `human` once staff take a conversation over (the live channel). */
  handledBy: "agent" | "human";
  /** The visitor's first message (cut at 300 characters): what the list shows and the search reads. */
  firstText: string;
  /** Takeover: who handles it now, and the request for a person (the console's Live page reads them). */
  handler?: Handler;
  personRequest?: PersonRequest | null;
}

/** A completion or a tool call of a session, for the insights (per day and agent). */
export interface SessionStep {
  id: string;
  at: number;
  kind: "completion" | "tool";
  /** Completions: chat, quick or classify. */
  purpose: string;
  /** Completions: ms from the request to the provider's first byte, as the worker saw it. */
  firstByteMs: number | null;
  tokens: number;
  ok: boolean;
  /** A completion whose reply is an answer the visitor read (text, no tool calls). */
  answer: boolean;
}

/** A tool's result fed back as a visitor message (text-react agents): not something the visitor wrote. */
const isObservation = (content: string) => content.startsWith("Observation:");

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * A step the visitor's browser wrote (its own tools' runs, its Stop; the worker marks them so,
 * worker/session/client-steps.ts): shown in the trace, but the index counts only what the worker
 * measured itself (tokens, timings, tool calls and failures), and the conversation's last activity
 * is not read from it.
 */
const byBrowser = (t: SessionState["trace"][number]) => t.detail?.side === "client";

/** The completions and tool calls the worker measured (not the browser's own steps). */
export function sessionSteps(state: SessionState): SessionStep[] {
  const answers = new Set(
    state.messages.filter((m) => m.role === "assistant" && m.content && !m.toolCalls?.length).map((m) => m.id),
  );
  const steps: SessionStep[] = [];
  for (const t of state.trace) {
    if ((t.kind !== "completion" && t.kind !== "tool") || byBrowser(t)) continue;
    const d = t.detail ?? {};
    const purpose = t.kind === "completion" ? String(d.purpose ?? "chat") : "";
    const tokens = (num(d.promptTokens) ?? 0) + (num(d.completionTokens) ?? 0);
    const answer = t.kind === "completion" && purpose !== "classify" && answers.has(String(d.replyId ?? ""));
    steps.push({
      id: t.id,
      at: t.at,
      kind: t.kind,
      purpose,
      firstByteMs: num(d.firstByteMs),
      tokens,
      ok: t.ok,
      answer,
    });
  }
  return steps;
}

export function summarizeSession(state: SessionState): SessionSummary {
  const steps = sessionSteps(state);
  const ratings = Object.values(state.feedback ?? {});
  const times = [
    state.openedAt ?? 0,
    ...state.messages.map((m) => m.at),
    ...state.trace.filter((t) => !byBrowser(t)).map((t) => t.at),
    ...ratings.map((r) => r.at),
  ];
  const first = state.messages.find((m) => m.role === "user" && !isObservation(m.content));
  const opened = state.openedAt ?? Math.min(...times.filter((t) => t > 0), Date.now());
  return {
    sessionId: state.sessionId,
    agentId: state.agentId,
    locale: state.locale ?? "",
    openedAt: opened,
    lastActivityAt: Math.max(opened, ...times),
    messages: state.messages.filter(
      (m) => (m.role === "user" && !isObservation(m.content)) || (m.role === "assistant" && m.content),
    ).length,
    tokens: state.usage?.totalTokens ?? 0,
    feedbackUp: ratings.filter((r) => r.rating === "up").length,
    feedbackDown: ratings.filter((r) => r.rating === "down").length,
    advice: state.advice.length,
    escalated: (state.escalations ?? []).length > 0,
    interrupted: state.messages.some((m) => m.role === "assistant" && m.status === "interrupted"),
    quickAnswers: steps.filter((s) => s.answer && s.purpose === "quick").length,
    reactAnswers: steps.filter((s) => s.answer && s.purpose !== "quick").length,
    // Once a person took part (joined, or wrote), the conversation stays "human" after the hand back.
    handledBy: state.handler?.kind === "person" || state.messages.some((m) => m.author) ? "human" : "agent",
    firstText: first?.content.slice(0, 300) ?? "",
    handler: state.handler ?? { kind: "agent" },
    personRequest: state.personRequest ?? null,
  };
}
