import type { ComplianceRule } from "../../shared/config/guard-config.ts";
import { adviceEvent } from "../../shared/chat/step-events.ts";
import { checkCompliance, type Violation } from "./compliance.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

/** The longest text a card holds whole: a clipped text is not the text that was checked. */
const CARD_TEXT_MAX = 2000;

/**
 * A text for the rep, through compliance_check in code: the text itself when it passes, else its
 * rewrite when that passes in turn, else null (a tenant's rewrite with a banned phrase in it).
 */
export function passedText(
  text: string,
  rules: readonly ComplianceRule[],
): { text: string | null; violations: Violation[] } {
  const first = checkCompliance(text, rules);
  if (first.compliant) return { text, violations: [] };
  const again = checkCompliance(first.rewritten, rules);
  return { text: again.compliant ? first.rewritten : null, violations: first.violations };
}

/** What a card shown to the rep says, and the tool call that produced it (the widget shows it there). */
export interface RepCardDraft {
  callId: string;
  title: string;
  category: string;
  /** Must already be the output of passedText: the card is refused otherwise. */
  text: string;
}

/**
 * The only way a quote becomes a card the rep sees: built here from a text that passed
 * compliance_check, checked once more on exactly the text the card holds, whatever the model or the
 * prompt wanted; null when it does not pass.
 */
export function compliantCard(draft: RepCardDraft, rules: readonly ComplianceRule[], now = Date.now()) {
  if (draft.text.length > CARD_TEXT_MAX || !checkCompliance(draft.text, rules).compliant) return null;
  return adviceEvent({
    id: draft.callId.slice(0, 120),
    title: draft.title.slice(0, 120),
    content: draft.text,
    evidence: ["Passed compliance_check on this exact text."],
    severity: "info",
    category: draft.category.slice(0, 60),
    // The call's id places the card in the conversation; a tool call does not carry its reply's id.
    messageId: "",
    at: now,
  }) satisfies SessionEvent;
}
