import type { QueuedRequest } from "../../shared/admin/desk-records.ts";
import { complaintKey } from "./untrusted-text.ts";

/**
 * Whether a passing candidate may go to production without the owner. Visitor requests (a
 * thumbs-down's comment, or the agent's suggest_strategy_update, whose words a visitor can steer)
 * come from anyone with a session: on their own they move production only when the same complaint
 * came from `quorum` distinct sessions. A note of the owner's among the requests is the owner's
 * say. Anything else waits as a candidate. Pure.
 */
export function autoPromotion(
  requests: readonly QueuedRequest[],
  quorum: number,
): { allowed: boolean; reason: string } {
  if (requests.some((r) => r.source === "owner"))
    return { allowed: true, reason: "the site owner's note is among the requests" };
  const sessions = new Map<string, Set<string>>();
  for (const r of requests) {
    const key = complaintKey(r.text);
    const set = sessions.get(key) ?? sessions.set(key, new Set()).get(key)!;
    // A request without a session counts for none: nothing says who sent it.
    if (r.context?.session) set.add(r.context.session);
  }
  const counts = [...sessions.values()].map((s) => s.size);
  const fewest = Math.min(...counts);
  if (counts.length && fewest >= quorum)
    return { allowed: true, reason: `each complaint came from at least ${quorum} distinct sessions` };
  const had = counts.length ? fewest : 0;
  return {
    allowed: false,
    reason:
      "not promoted by itself: every request came from a visitor's session, and " +
      (counts.length > 1
        ? `each complaint needs ${quorum} distinct sessions (the fewest had ${had})`
        : `the same complaint needs ${quorum} distinct sessions (this one had ${had})`) +
      "; waiting for the owner to promote, or for a note of the owner's",
  };
}
