import type { SessionState } from "../../shared/session/session.ts";
import type { SessionSummary } from "../../shared/session/session-summary.ts";
import { redactText } from "./redact-text.ts";
import { redactDetail } from "./redact-values.ts";
import type { FieldValue, FieldValues } from "../../shared/stages/field-value.ts";

const BIRTH_FIELD = /birth|dob|生日|出生/i;

/**
 * A stage value: its text redacted, and a date in a field named for a birth date replaced whole (the
 * field's name is the birth word a sentence would carry).
 */
function redactField(key: string, value: FieldValue): FieldValue {
  if (typeof value === "string") return BIRTH_FIELD.test(key) && /\d/.test(value) ? "[birth-date]" : redactText(value);
  return Array.isArray(value) ? value.map(redactText) : value;
}

const redactFields = (values: FieldValues): FieldValues =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, redactField(k, v)]));

/**
 * A conversation for sharing (the export's redacted variant): every text the visitor, the assistant or
 * staff wrote and every value collected, with personal details replaced by typed placeholders; a contact
 * the visitor left, personal by what it is, replaced whole. Ids, times, counts, stages and the trace's
 * shape are kept, so the shared copy still reads as the conversation it was.
 */
export function redactedState(state: SessionState): SessionState {
  const t = redactText;
  return {
    ...state,
    messages: state.messages.map((m) => ({
      ...m,
      content: t(m.content),
      ...(m.reasoning ? { reasoning: t(m.reasoning) } : {}),
      ...(m.toolCalls
        ? {
            toolCalls: m.toolCalls.map((c) => ({
              ...c,
              function: { ...c.function, arguments: t(c.function.arguments) },
            })),
          }
        : {}),
    })),
    advice: state.advice.map((a) => ({ ...a, title: t(a.title), content: t(a.content), evidence: a.evidence.map(t) })),
    escalations: (state.escalations ?? []).map((e) => ({ ...e, matched: t(e.matched) })),
    context: Object.fromEntries(Object.entries(state.context).map(([stage, values]) => [stage, redactFields(values)])),
    actions: state.actions.map((a) => ({ ...a, result: redactFields(a.result) })),
    trace: state.trace.map((s) => (s.detail ? { ...s, detail: redactDetail(s.detail) } : s)),
    feedback: Object.fromEntries(
      Object.entries(state.feedback ?? {}).map(([id, f]) => [id, f.comment ? { ...f, comment: t(f.comment) } : f]),
    ),
    contacts: (state.contacts ?? []).map((c) => ({
      at: c.at,
      contact: "[contact]",
      ...(c.name ? { name: "[name]" } : {}),
      ...(c.note ? { note: t(c.note) } : {}),
    })),
    personRequest: state.personRequest?.reason
      ? { ...state.personRequest, reason: t(state.personRequest.reason) }
      : state.personRequest,
  };
}

/** A row of the conversation list's export, for sharing: its first message redacted. */
export const redactedSummary = (s: SessionSummary): SessionSummary => ({ ...s, firstText: redactText(s.firstText) });
