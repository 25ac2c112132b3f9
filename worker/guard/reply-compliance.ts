import type { AgentConfig, SiteConfig } from "../../shared/agent-config.ts";
import { EVENT_TYPES } from "../../shared/protocol.ts";
import type { SessionEvent } from "../../shared/session.ts";
import { checkCompliance } from "../sales/compliance.ts";

/**
 * The finished reply of an agent with `guards.compliance`, through the site's compliance rules: a
 * trace step for the owner when it made a banned claim or a price promise. It runs once the
 * stream has ended, so it never holds the text back.
 */
export function replyComplianceEvents(
  content: string,
  replyId: string,
  agent: AgentConfig,
  site: SiteConfig,
  now = Date.now(),
): SessionEvent[] {
  if (!agent.guards.compliance || !content) return [];
  const { violations } = checkCompliance(content, site.safety.compliance?.rules ?? []);
  if (!violations.length) return [];
  const detail = {
    replyId,
    violations: violations
      .map((v) => `${v.kind}: ${v.text}`)
      .join("; ")
      .slice(0, 500),
  };
  return [
    {
      id: `trace:compliance:${replyId}`,
      at: now,
      type: EVENT_TYPES.traceStep,
      data: { kind: "guard", name: "compliance", ok: false, detail },
    },
  ];
}
