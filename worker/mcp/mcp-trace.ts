import { traceEvent } from "../../shared/chat/step-events.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

/**
 * What kept an MCP tool from a turn, as trace steps the owner reads. The id is the problem's text, so
 * a session records each once however many turns meet it.
 */
export function mcpProblemSteps(problems: readonly string[], at = Date.now()): SessionEvent[] {
  return problems
    .slice(0, 10)
    .map((text) =>
      traceEvent(
        `mcp:${text.slice(0, 100)}`,
        { kind: "mcp", name: "tools/list", ok: false, detail: { error: text.slice(0, 500) } },
        at,
      ),
    );
}
