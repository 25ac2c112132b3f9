import type { GuardClassifier, SiteSafety } from "../../shared/config/guard-config.ts";
import { traceEvent, traceEventId } from "../../shared/chat/step-events.ts";
import { classify, type ClassifierOutcome, type ClassifierTarget } from "./classifier.ts";
import { NOTHING_RAISED, raiseEscalation, type EscalationContext, type Raised } from "./turn-guard.ts";

/** Asks the classifier about the visitor's message; never throws, never outlasts the site's timeout. */
export const startClassifier = (
  ctx: EscalationContext,
  config: GuardClassifier,
  target: ClassifierTarget,
  model: string,
) => classify(config, target, ctx.text, model);

/**
 * The classifier's outcome as session events: its trace step (how long it took, and how long the
 * reply's first byte waited for it after the provider's) and, when it found an emergency the rules
 * had not, the escalation. A failure or a timeout raises nothing: the rules' verdict stands.
 */
export function classifierEvents(
  ctx: EscalationContext,
  safety: SiteSafety,
  outcome: ClassifierOutcome,
  heldMs: number,
  now = Date.now(),
): Raised {
  const { messageId } = ctx;
  const id = traceEventId(`guard-classifier:${messageId}`);
  const step = (ok: boolean, detail: Record<string, string | number>) =>
    traceEvent(
      id,
      { kind: "guard", name: "classifier", ms: outcome.ms, ok, detail: { messageId, ...detail, heldMs } },
      now,
    );
  if (!outcome.ok) return { ...NOTHING_RAISED, events: [step(false, { error: outcome.reason })] };
  const checked = step(true, { category: outcome.category ?? "none" });
  if (!outcome.category) return { ...NOTHING_RAISED, events: [checked] };
  const detail = { classifierMs: outcome.ms, heldMs };
  const raised = raiseEscalation(
    ctx,
    safety,
    { category: outcome.category, source: "classifier", matched: "", detail },
    now,
  );
  return { ...raised, events: [...raised.events, checked] };
}
