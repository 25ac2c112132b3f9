import type { PublicAgent } from "../../shared/config/agent-config.ts";
import { localize } from "../../shared/config/localize.ts";
import type { SessionState } from "../../shared/session/session.ts";
import { orderedStages } from "../../shared/stages/stage-machine.ts";
import type { FieldValue } from "../../shared/stages/field-value.ts";

const show = (v: FieldValue | undefined): string =>
  Array.isArray(v) ? v.join("; ") : v == null || v === "" ? "—" : String(v);

/** The workflow's result as Markdown: every stage with its fields, in the visitor's language. */
export function buildSummary(agent: PublicAgent, state: SessionState, locale: string, now = new Date()): string {
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "long" }).format(now);
  const lines = [`# ${localize(agent.name, locale)}`, "", `_${date}_`, ""];
  orderedStages(agent.stages).forEach((stage, i) => {
    lines.push(`## ${i + 1}. ${localize(stage.name, locale)}`, "");
    const values = state.context[stage.id] ?? {};
    for (const f of stage.fields) lines.push(`- **${localize(f.label, locale)}:** ${show(values[f.key])}`);
    lines.push("");
  });
  return lines.join("\n");
}
