import type { AdviceSeverity } from "../wire/protocol.ts";

/** The category an advice card needs to use the `urgent` severity. */
export const EMERGENCY_ADVICE_CATEGORY = "emergency";

export interface AdviceDraft {
  evidence: readonly string[];
  severity: AdviceSeverity;
  category: string;
}

/**
 * The advice guard's rule for a `record_advice` call of an agent with `guards.advice`,
 * pure so the browser's tool and the worker's record agree: evidence is required, and `urgent` is
 * kept for emergencies (the emergency guard's own card is the other urgent thing a visitor sees).
 * Null when the card may be recorded; else what the model is told.
 */
export function adviceProblem(draft: AdviceDraft): string | null {
  if (!draft.evidence.some((e) => e.trim().length > 0)) {
    return (
      "Not recorded: no evidence. Add the evidence (a guideline, " +
      "a source, what the visitor said) or do not record it."
    );
  }
  if (draft.severity === "urgent" && draft.category.trim().toLowerCase() !== EMERGENCY_ADVICE_CATEGORY) {
    return `Not recorded: "urgent" is only for category "${EMERGENCY_ADVICE_CATEGORY}". Use "caution".`;
  }
  return null;
}
