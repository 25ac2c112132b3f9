import type { ToolCall } from "../../shared/chat/chat.ts";
import { messageEvent } from "../../shared/session/events.ts";
import { traceEvent } from "../../shared/chat/step-events.ts";
import { stoppedStepId, toolStepId } from "../../shared/chat/client-steps.ts";
import { TOOL_NAMES } from "../../shared/tools/tool-names.ts";
import type { SessionState } from "../../shared/session/session.ts";
import type { StepResult } from "./completion.ts";
import { executeToolCalls, type ExecutedCall, type ExecutorOptions } from "./executor.ts";
import { newId } from "./ids.ts";
import type { SessionEvent, StoredMessage } from "../../shared/session/session-events.ts";

export interface StepToolsOptions extends ExecutorOptions {
  /** The session's log as it stands: a call with a result there does not run again. */
  log: readonly StoredMessage[];
  /** Results go back as tool messages (not text ReAct's observations): they are recorded as such. */
  asMessages: boolean;
  /** Sends events to the worker (the session's record). */
  record: (events: SessionEvent[]) => void;
}

/**
 * One step's tool calls (resumable turns: each tool call id runs once). A call whose result the session's log
 * already holds (the page went away after it ran) is answered from the log; the others run, and their
 * results are recorded at once, so a reload before the next completion finds them. Edge tools are
 * also answered from the worker's record of their id. The browser's own tools are traced here.
 */
export async function runStepTools(calls: ToolCall[], stepId: string, o: StepToolsOptions): Promise<ExecutedCall[]> {
  const known = new Map(o.log.flatMap((m) => (m.role === "tool" && m.toolCallId ? [[m.toolCallId, m] as const] : [])));
  const ran = await executeToolCalls(
    calls.filter((c) => !known.has(c.id)),
    o,
  );
  const results = calls.map((call): ExecutedCall => {
    const m = known.get(call.id);
    const side = o.tools[call.function.name]?.runsOn ?? "client";
    if (m) return { call, outcome: "ok", observation: m.content, ms: 0, side, messageId: m.id };
    return { ...ran.shift()!, messageId: newId() };
  });
  const events: SessionEvent[] = [];
  for (const r of results) {
    if (known.has(r.call.id)) continue;
    if (o.asMessages)
      events.push(
        messageEvent({ id: r.messageId!, role: "tool", content: r.observation, toolCallId: r.call.id, at: Date.now() }),
      );
    // Edge tools are traced by the worker; the browser's own tools are traced here.
    if (r.side === "client")
      events.push(
        traceEvent(toolStepId(r.call.id), {
          kind: "tool",
          name: r.call.function.name,
          ms: r.ms,
          ok: r.outcome === "ok",
          detail: { side: "client", outcome: r.outcome },
        }),
      );
  }
  // The visitor stopped the turn while its tools ran: a restored page leaves it stopped.
  if (o.signal?.aborted) events.push(traceEvent(stoppedStepId(stepId), { kind: "stopped", ok: true }));
  if (events.length) o.record(events);
  return results;
}

/** A step the loop can go on from: the model's tool calls, stored, whose turn has not ended. */
export interface PendingStep {
  /** Where the step is in the session's messages (the history before it is what the model saw). */
  at: number;
  /** Steps of this turn before it (they count towards the step limit). */
  before: number;
  step: StepResult & { id: string };
}

/**
 * Where a turn stands when the page comes back (resumable turns: the agent loop goes on): the last step
 * asked for tools and the turn did not end there (ask_followup, the visitor's Stop, the step limit),
 * so the loop goes on from it, its calls already answered taken from the log. Text ReAct steps
 * store no calls, so they are not resumed.
 */
export function pendingStep(state: SessionState, maxSteps: number): PendingStep | null {
  const ms = state.messages;
  let at = ms.length - 1;
  while (at >= 0 && ms[at].role === "tool") at--;
  const m = ms[at];
  const calls = m?.role === "assistant" && m.status !== "interrupted" ? (m.toolCalls ?? []) : [];
  if (!calls.length || calls.some((c) => c.function.name === TOOL_NAMES.askFollowup)) return null;
  if (state.trace.some((t) => t.id === stoppedStepId(m.id))) return null;
  let before = 0;
  for (let i = at - 1; i >= 0 && !(ms[i].role === "user" && !ms[i].content.startsWith("Observation:")); i--)
    if (ms[i].role === "assistant") before++;
  if (before + 1 >= maxSteps) return null;
  const step = { id: m.id, text: m.content, reasoning: m.reasoning, toolCalls: calls, finishReason: "tool_calls" };
  return { at, before, step };
}
