import type { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import type { Purpose } from "../../shared/chat/chat.ts";
import { freshEventId } from "../../shared/session/events.ts";
import type { SiteSafety } from "../../shared/config/guard-config.ts";
import type { EmergencyCategory, EmergencySituation } from "../../shared/wire/protocol.ts";
import { traceEvent } from "../../shared/chat/step-events.ts";
import { parseToolInput } from "../../shared/tools/tool.ts";
import { escalateEmergency } from "../../shared/tools/escalate-emergency.ts";
import { escalationNote } from "./escalation-text.ts";
import { NOTHING_RAISED, raiseEscalation, type EscalationContext, type Raised } from "./turn-guard.ts";
import type { Escalation } from "../../shared/session/session-events.ts";

/** The card a situation the model names gets: the older, narrower category where one fits it whole. */
const CATEGORY_OF: Record<EmergencySituation, EmergencyCategory> = {
  airway: "breathing",
  circulation: "circulation",
  neuro: "neuro",
  sepsis: "sepsis",
  drug_reaction: "drug_reaction",
  burns: "burn",
  poisoning: "poisoning",
  self_harm: "self_harm",
  obstetric: "obstetric",
  child: "child",
  heat_gas: "heat_gas",
};

/**
 * Rounds of escalate_emergency calls answered within one reply: the first, and one more for a call
 * whose arguments were invalid. A model that keeps calling it is not asked again.
 */
export const MAX_ESCALATION_ROUNDS = 2;

/**
 * Whether a request offers the model escalate_emergency: an agent with the emergency guard, calling
 * tools natively (a text-ReAct action is the widget's to parse), for a reply to the visitor (not the
 * router's classification), unless the site turned it off or the rules already raised the card.
 */
export function offersEscalationTool(
  agent: Pick<AgentConfig, "guards" | "strategy">,
  site: Pick<SiteConfig, "safety">,
  purpose: Purpose,
  raised: boolean,
): boolean {
  return (
    agent.guards.emergency &&
    site.safety.modelEscalation !== false &&
    agent.strategy !== "text-react" &&
    purpose !== "classify" &&
    !raised
  );
}

export interface ModelCallOutcome extends Raised {
  /** What the model reads as the call's result. */
  result: string;
}

const shown = (e: Escalation) => JSON.stringify({ shown: true, instruction: escalationNote(e) });

/**
 * One escalate_emergency call, run on the worker: it raises the escalation for the visitor's latest
 * message unless one is raised already (then the call is only traced), and answers the model with
 * what the visitor now sees. Invalid arguments raise nothing and go back to the model with the reason.
 */
export function runEscalationCall(
  ctx: EscalationContext,
  safety: SiteSafety,
  args: string,
  already: Escalation | null,
  now = Date.now(),
): ModelCallOutcome {
  const parsed = parseToolInput(escalateEmergency, args);
  const step = (ok: boolean, detail: Record<string, string | boolean>) =>
    traceEvent(
      freshEventId("trace"),
      { kind: "guard", name: escalateEmergency.name, ok, detail: { messageId: ctx.messageId, ...detail } },
      now,
    );
  if (!parsed.ok) return { ...NOTHING_RAISED, events: [step(false, { error: parsed.error })], result: parsed.error };
  const { situation, words } = parsed.value;
  if (already) {
    const events = [step(true, { situation, raised: false, decidedBy: already.source })];
    return { ...NOTHING_RAISED, events, result: shown(already) };
  }
  const raised = raiseEscalation(ctx, safety, {
    category: CATEGORY_OF[situation],
    source: "model",
    situation,
    matched: words,
  });
  return { ...raised, result: shown(raised.escalation!) };
}
