import type { ClientTraceStep } from "../../shared/session/client-events.ts";
import { reactCallId, stoppedStepId, toolStepId } from "../../shared/chat/client-steps.ts";
import { traceEvent } from "../../shared/chat/step-events.ts";
import type { SessionState } from "../../shared/session/session.ts";
import type { TraceStep, SessionEvent } from "../../shared/session/session-events.ts";

/** A browser's tool run is timed by the browser: shown in the trace, within bounds, never counted. */
const MAX_MS = 3_600_000;

/** What follows a prefix, or null when `id` does not start with it. */
const after = (id: string, prefix: string) => (id.startsWith(prefix) ? id.slice(prefix.length) : null);

/**
 * The trace steps a browser writes (shared/chat/client-steps.ts), as the worker stores them. Each is
 * about something the assistant did, under the id made from it: a run of a tool call it made
 * (`trace:<call id>`, or a text ReAct step's one call, `trace:react_<step id>`), or the visitor's
 * Stop of one of its steps (`trace:stopped:<step id>`). The worker writes the step anew: its time
 * (`now`), the call's tool name, and only the listed fields, marked `side: "client"`, so the
 * site's index counts none of it (shared/session/session-summary.ts). Answers what to store, and the ids
 * refused (nothing is stored then).
 */
export function clientSteps(
  state: SessionState,
  events: readonly ClientTraceStep[],
  now: number,
): { store: SessionEvent[]; refused: string[] } {
  const steps = new Set<string>();
  const calls = new Map<string, string>();
  for (const m of state.messages) {
    if (m.role !== "assistant" || m.author) continue;
    steps.add(m.id);
    for (const c of m.toolCalls ?? []) calls.set(c.id, c.function.name);
  }
  const refused: string[] = [];
  const store: SessionEvent[] = [];
  for (const e of events) {
    const d = e.data;
    if (d.kind === "stopped") {
      const step = after(e.id, stoppedStepId(""));
      if (step === null || !steps.has(step)) refused.push(e.id);
      else store.push(traceEvent(e.id, { kind: "stopped", ok: true, detail: { side: "client" } }, now));
      continue;
    }
    const call = after(e.id, toolStepId("")) ?? "";
    const reactStep = after(call, reactCallId(""));
    const name = calls.get(call) ?? (reactStep !== null && steps.has(reactStep) ? d.name : undefined);
    if (!name) {
      refused.push(e.id);
      continue;
    }
    const step: TraceStep["data"] = {
      kind: "tool",
      name,
      ...(d.ms !== undefined ? { ms: Math.min(Math.max(0, Math.round(d.ms)), MAX_MS) } : {}),
      ok: d.ok,
      detail: { side: "client", ...(d.detail?.outcome ? { outcome: d.detail.outcome } : {}) },
    };
    store.push(traceEvent(e.id, step, now));
  }
  return { store, refused };
}
