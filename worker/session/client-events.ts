import type { ClientEvent, ClientToolResult, ClientTraceStep } from "../../shared/session/client-events.ts";
import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import type { SessionState } from "../../shared/session/session.ts";
import { forgedAdvice } from "../guard/advice-guard.ts";
import { clientSteps } from "./client-steps.ts";
import { clientToolResults } from "./tool-result-events.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

/** Why a browser's events were refused, as the route answers it (nothing of them is stored then). */
export interface ClientRefusal {
  status: 403;
  code: "forbidden";
  message: string;
}

type ClientAdvice = Extract<ClientEvent, { type: typeof EVENT_TYPES.adviceRecorded }>;

const refusal = (message: string): { refused: ClientRefusal } => ({
  refused: { status: 403, code: "forbidden", message },
});

/**
 * What a browser's events (shared/session/client-events.ts) become in its session's log. Everything a
 * browser sends is data: each event must be about something the worker stored first, and the
 * worker writes the event itself, with the id made from what it is about, its own time and only
 * the listed fields. Tool results: tool-result-events.ts; its tools' trace steps: client-steps.ts;
 * advice copies: checked against the cards the worker derived, and not stored (they change nothing);
 * consent: refused, whatever it says (the consent route records it).
 */
export function clientEvents(
  state: SessionState,
  events: readonly ClientEvent[],
  o: { now: number; live: ReadonlySet<string> },
): { store: SessionEvent[] } | { refused: ClientRefusal } {
  if (events.some((e) => e.type === EVENT_TYPES.consentGiven))
    return refusal(
      "Consent is recorded by the worker (POST /v1/sessions/:id/consent, with the notice's current version), " +
        "never sent by the browser as an event",
    );
  const advice = events.filter((e): e is ClientAdvice => e.type === EVENT_TYPES.adviceRecorded);
  const forged = forgedAdvice(state, advice);
  if (forged.length)
    return refusal(
      `Advice ${forged.join(", ")} matches no record_advice call the assistant made; ` +
        "advice cannot be sent by the browser",
    );
  const results = clientToolResults(
    state,
    events.filter((e): e is ClientToolResult => e.type === EVENT_TYPES.messageAppended),
    o.now,
    o.live,
  );
  if (results.refused.length)
    return refusal(
      `Messages ${results.refused.join(", ")} are not new results of the assistant's tool calls; ` +
        "a browser appends only those",
    );
  const steps = clientSteps(
    state,
    events.filter((e): e is ClientTraceStep => e.type === EVENT_TYPES.traceStep),
    o.now,
  );
  if (steps.refused.length)
    return refusal(
      `Trace steps ${steps.refused.join(", ")} are about no tool call or step of the assistant's; ` +
        "a browser traces only its own tools' runs and its Stop",
    );
  return { store: [...results.store, ...steps.store] };
}
