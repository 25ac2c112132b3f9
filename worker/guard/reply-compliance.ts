import type { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import { adviceEvent } from "../../shared/chat/step-events.ts";
import { checkCompliance } from "../sales/compliance.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

/** What the rep must be shown about a finished reply that broke the site's compliance rules. */
export interface ComplianceVerdict {
  replyId: string;
  /** Each violation: its [start, end) span in the reply, the text, the rule and what to say instead. */
  violations: Array<{ kind: string; rule: string; span: [number, number]; text: string; rewrite: string }>;
  /** The whole reply with every violation replaced by its rewrite. */
  rewritten: string;
}

/**
 * The finished reply of an agent with `guards.compliance`, through the site's compliance rules: a
 * verdict (spans and the compliant rewrite) when it made a banned claim or a price promise, null
 * otherwise. Enforced here, whatever the prompt told the model. It runs once the reply is whole,
 * so it never holds the stream back.
 */
export function replyComplianceVerdict(
  content: string,
  replyId: string,
  agent: Pick<AgentConfig, "guards">,
  site: Pick<SiteConfig, "safety">,
): ComplianceVerdict | null {
  if (!agent.guards.compliance || !content) return null;
  const { violations, rewritten } = checkCompliance(content, site.safety.compliance?.rules ?? []);
  if (!violations.length) return null;
  return {
    replyId,
    violations: violations.map(({ kind, rule, span, text, rewrite }) => ({ kind, rule, span, text, rewrite })),
    rewritten,
  };
}

/** What the rep reads of a reply: a ReAct reply's final answer, else the whole text. */
const shownText = (content: string) => content.replace(/^[\s\S]*?Final Answer:\s*/i, "");

/** A flagged span marked «thus» with up to 40 characters either side. */
function inContext(text: string, [start, end]: [number, number]): string {
  const from = Math.max(0, start - 40);
  const to = Math.min(text.length, end + 40);
  const head = (from > 0 ? "…" : "") + text.slice(from, start);
  return `${head}«${text.slice(start, end)}»${text.slice(end, to)}${to < text.length ? "…" : ""}`;
}

/**
 * The rep's flag for a non-compliant reply, as a card under it (with the reply's id): each
 * violating phrase with where it stands and what to say instead, and the whole compliant rewrite.
 * The worker stores it with the reply; the widget gets the same card from compliance_check.
 */
export function complianceCard(
  content: string,
  replyId: string,
  agent: Pick<AgentConfig, "guards">,
  site: Pick<SiteConfig, "safety">,
  now = Date.now(),
): SessionEvent | null {
  const shown = shownText(content);
  const verdict = replyComplianceVerdict(shown, replyId, agent, site);
  if (!verdict) return null;
  return adviceEvent({
    id: replyId.slice(0, 120),
    title: "Not compliant: do not say this as written",
    content: `Say instead: ${verdict.rewritten}`.slice(0, 2000),
    // Each flagged span in its sentence, the compliant rewrite beside it.
    evidence: verdict.violations.slice(0, 10).map((v) => `${inContext(shown, v.span)} → «${v.rewrite}»`.slice(0, 500)),
    severity: "caution",
    category: "compliance",
    messageId: replyId.slice(0, 100),
    at: now,
  });
}

/**
 * The verdict for the owner and the rep: a trace step (what was said, where, the rewrite) and the
 * rep's card, both stored with the reply.
 */
export function replyComplianceEvents(
  content: string,
  replyId: string,
  agent: Pick<AgentConfig, "guards">,
  site: Pick<SiteConfig, "safety">,
  now = Date.now(),
): SessionEvent[] {
  const verdict = replyComplianceVerdict(content, replyId, agent, site);
  if (!verdict) return [];
  const detail = {
    replyId,
    violations: verdict.violations
      .map((v) => `${v.kind}: ${v.text}`)
      .join("; ")
      .slice(0, 500),
    spans: verdict.violations
      .map((v) => `${v.span[0]}-${v.span[1]}`)
      .join(",")
      .slice(0, 500),
    rewrite: verdict.rewritten.slice(0, 4000),
  };
  return [
    {
      id: `trace:compliance:${replyId}`,
      at: now,
      type: EVENT_TYPES.traceStep,
      data: { kind: "guard", name: "compliance", ok: false, detail },
    },
    ...[complianceCard(content, replyId, agent, site, now)].filter((e) => e !== null),
  ];
}
