import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import { redactText } from "./redact-text.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

type Detail = Record<string, string | number | boolean | null>;

/**
 * A trace step's fields the worker fills with what it minted or chose (ids, model names, its own enums):
 * never the visitor's words, and left whole so the trace still joins to its messages. Every other text
 * (an error, a guard's matched words, a rewrite of the reply) is redacted.
 */
const MINTED = new Set([
  "replyId",
  "messageId",
  "callId",
  "side",
  "model",
  "from",
  "to",
  "purpose",
  "status",
  "category",
  "variant",
  "source",
  "region",
  "intent",
  "prompt",
]);

export function redactDetail(detail: Detail): Detail {
  let out: Detail | null = null;
  for (const [key, value] of Object.entries(detail)) {
    if (typeof value !== "string" || MINTED.has(key)) continue;
    const redacted = redactText(value);
    if (redacted !== value) (out ??= { ...detail })[key] = redacted;
  }
  return out ?? detail;
}

/** The events with each trace step's detail redacted; other events as they are (the transcript keeps its text). */
export function redactTraceSteps(events: SessionEvent[]): SessionEvent[] {
  return events.map((e) =>
    e.type === EVENT_TYPES.traceStep && e.data.detail
      ? { ...e, data: { ...e.data, detail: redactDetail(e.data.detail) } }
      : e,
  );
}
