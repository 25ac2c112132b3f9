import type { AgentConfig } from "../../shared/config/agent-config.ts";
import { adviceProblem } from "../../shared/tools/advice-policy.ts";
import type { ToolCall } from "../../shared/chat/chat.ts";
import { adviceEvent } from "../../shared/chat/step-events.ts";
import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import { TOOL_NAMES } from "../../shared/tools/tool-names.ts";
import type { SessionState } from "../../shared/session/session.ts";
import { parseToolInput } from "../../shared/tools/tool.ts";
import { recordAdvice } from "../../shared/tools/record-advice.ts";
import type { Advice, SessionEvent } from "../../shared/session/session-events.ts";

/**
 * Advice as the worker derives it from the model's `record_advice` calls in a reply it relayed:
 * the only source of advice in the session log. A call with invalid arguments, or one the advice
 * guard refuses, records nothing (the browser's tool tells the model why).
 */
export function adviceFromReply(
  toolCalls: readonly ToolCall[],
  replyId: string,
  agent: Pick<AgentConfig, "guards">,
  now = Date.now(),
): SessionEvent[] {
  const events: SessionEvent[] = [];
  for (const call of toolCalls) {
    if (call.function.name !== TOOL_NAMES.recordAdvice || !call.id) continue;
    const parsed = parseToolInput(recordAdvice, call.function.arguments);
    if (!parsed.ok) continue;
    if (agent.guards.advice && adviceProblem(parsed.value)) continue;
    const advice: Advice = { id: call.id, ...parsed.value, messageId: replyId, at: now };
    events.push(adviceEvent(advice));
  }
  return events;
}

const same = (a: Advice, b: Advice) =>
  a.title === b.title &&
  a.content === b.content &&
  a.severity === b.severity &&
  a.category === b.category &&
  a.evidence.length === b.evidence.length &&
  a.evidence.every((e, i) => e === b.evidence[i]) &&
  (a.photos ?? []).join() === (b.photos ?? []).join();

/**
 * A browser's advice event is accepted only as a copy of advice the worker derived from a recorded
 * call (then it changes nothing); anything else is a forgery: the ids of those, empty when none.
 */
export function forgedAdvice(state: SessionState, events: readonly SessionEvent[]): string[] {
  return events.flatMap((e) => {
    if (e.type !== EVENT_TYPES.adviceRecorded) return [];
    const recorded = state.advice.find((a) => a.id === e.data.advice.id);
    return recorded && same(recorded, e.data.advice) ? [] : [e.data.advice.id];
  });
}
