import { EVENT_TYPES } from "../wire/protocol.ts";
import type { Advice, SessionEvent, TraceStep } from "../session/session-events.ts";

/**
 * What a turn's steps record besides its messages: advice cards and trace steps (tool calls, guard
 * verdicts, routing), made in one place for both sides as events.ts makes the others. A file apart:
 * the widget's core folds these events but never makes them (its tool runtime does), so it does not
 * ship their constructors.
 */
export const traceEventId = (key: string) => `trace:${key}`;

export function adviceEvent(advice: Advice): SessionEvent {
  return { id: `advice:${advice.id}`, at: advice.at, type: EVENT_TYPES.adviceRecorded, data: { advice } };
}

export function traceEvent(id: string, data: TraceStep["data"], at = Date.now()): SessionEvent {
  return { id, at, type: EVENT_TYPES.traceStep, data };
}
