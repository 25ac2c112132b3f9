import type { ToolInput } from "../../shared/tools/tool.ts";
import type { complianceCheck } from "../../shared/tools/compliance-check.ts";
import type { priceCalculator } from "../../shared/tools/price-calculator.ts";
import { loadSite } from "../config/config-store.ts";
import type { Env } from "../env.ts";
import { checkCompliance } from "./compliance.ts";
import { computeQuote } from "./price-calculator.ts";
import { compliantCard, passedText } from "./rep-card.ts";
import { sessionRoom } from "../objects.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

const tenantRules = async (env: Env, siteKey: string) => (await loadSite(env, siteKey))?.safety.compliance?.rules ?? [];

export async function runComplianceCheck(env: Env, siteKey: string, input: ToolInput<typeof complianceCheck>) {
  return checkCompliance(input.text, await tenantRules(env, siteKey));
}

/**
 * The quote, and the sentence the rep may read out. The executor, not the prompt, runs that
 * sentence through the tenant's compliance rules (an item named "guaranteed lowest price" is
 * rewritten before the model sees it): the model gets `say` only when it passed compliance_check.
 * Given the call's id (the widget's executor sends it), the quote is also a card for the rep, built
 * by compliantCard from exactly that text, and stored in the session for the owner.
 */
export async function runPriceCalculator(
  env: Env,
  siteKey: string,
  input: ToolInput<typeof priceCalculator>,
  call?: { id: string; sessionId: string },
): Promise<{ result: unknown; events?: SessionEvent[] }> {
  const quote = computeQuote(input);
  const rules = await tenantRules(env, siteKey);
  const lines = quote.lines.map(
    (l) =>
      `${l.quantity} x ${l.name} ` +
      `at ${l.unitPrice}${l.discount !== "0.00" ? ` less ${l.discountPercent} %` : ""} ` +
      `= ${l.total}`,
  );
  const roi = quote.roiPercent ? ` ROI ${quote.roiPercent} % a year, paid back in ${quote.paybackMonths} months.` : "";
  const check = passedText(`${lines.join("; ")}. Total ${quote.total}.${roi}`, rules);
  const compliance = { checked: true, violations: check.violations.map((v) => ({ rule: v.rule, text: v.text })) };
  if (check.text === null)
    return { result: { ...quote, say: null, compliance, card: "not shown: the quote did not pass compliance_check" } };
  const result = { ...quote, say: check.text, compliance };
  if (!call) return { result };
  const card = compliantCard(
    { callId: call.id, title: `Quote: ${quote.total}`, category: "quote", text: check.text },
    rules,
  );
  if (!card) return { result: { ...result, card: "not shown: the quote did not pass compliance_check" } };
  await sessionRoom(env, call.sessionId).append([card]);
  return { result: { ...result, card: "shown to the rep" }, events: [card] };
}
