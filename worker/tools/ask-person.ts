import { loadSite } from "../config/config-store.ts";
import { nobodyAvailable } from "../session/takeover-availability.ts";
import type { EdgeToolContext, EdgeToolOutput } from "./registry.ts";
import { sessionRoom } from "../objects.ts";

/**
 * The agent's `ask_for_person` (takeover): the same request as the visitor's button, by
 * the agent. The result tells the model what to say: the visitor waits for a person, or nobody is
 * available and the panel offers the contact form.
 */
export async function askPerson(ctx: EdgeToolContext, reason: string): Promise<EdgeToolOutput> {
  const site = await loadSite(ctx.env, ctx.siteKey);
  if (!site?.takeover.enabled) throw new Error("this site does not hand conversations to a person");
  const unavailable = await nobodyAvailable(ctx.env, site);
  const outcome = await sessionRoom(ctx.env, ctx.sessionId).takeover({
    op: "request",
    by: "agent",
    reason,
    unavailable,
  });
  const result =
    outcome.status === "unavailable"
      ? {
          status: "unavailable",
          instruction:
            "Nobody from the staff can come now. Tell the visitor so in one sentence; the panel shows them a form " +
            "to leave a way to be contacted. Then keep helping as far as you can.",
        }
      : {
          status: outcome.status === "with_person" ? "with_person" : "queued",
          instruction:
            "The visitor is in the queue for a person from the staff, who will join this chat. Tell the visitor so " +
            "in one sentence, and keep helping until they join.",
        };
  return { result, events: outcome.events };
}
