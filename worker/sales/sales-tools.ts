import type { ToolInput } from "../../shared/tool.ts";
import type { complianceCheck } from "../../shared/tools/compliance-check.ts";
import type { priceCalculator } from "../../shared/tools/price-calculator.ts";
import { loadSite } from "../config/config-store.ts";
import type { Env } from "../env.ts";
import { checkCompliance } from "./compliance.ts";
import { computeQuote } from "./price-calculator.ts";

const tenantRules = async (env: Env, siteKey: string) => (await loadSite(env, siteKey))?.safety.compliance?.rules ?? [];

export async function runComplianceCheck(env: Env, siteKey: string, input: ToolInput<typeof complianceCheck>) {
  return checkCompliance(input.text, await tenantRules(env, siteKey));
}

/**
 * The quote, and the sentence the rep may read out. The executor, not the prompt, runs that
 * sentence through the tenant's compliance rules (an item named "guaranteed lowest price" is
 * rewritten before the model sees it), so a price shown to the rep has passed compliance_check.
 */
export async function runPriceCalculator(env: Env, siteKey: string, input: ToolInput<typeof priceCalculator>) {
  const quote = computeQuote(input);
  const lines = quote.lines.map(
    (l) =>
      `${l.quantity} x ${l.name} ` +
      `at ${l.unitPrice}${l.discount !== "0.00" ? ` less ${l.discountPercent} %` : ""} ` +
      `= ${l.total}`,
  );
  const roi = quote.roiPercent ? ` ROI ${quote.roiPercent} % a year, paid back in ${quote.paybackMonths} months.` : "";
  const check = checkCompliance(`${lines.join("; ")}. Total ${quote.total}.${roi}`, await tenantRules(env, siteKey));
  return {
    ...quote,
    say: check.rewritten,
    compliance: { checked: true, violations: check.violations.map((v) => ({ rule: v.rule, text: v.text })) },
  };
}
