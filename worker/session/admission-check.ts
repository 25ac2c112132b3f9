import type { SessionState } from "../../shared/session.ts";
import type { SlidingWindow } from "../limits/sliding-window.ts";

export type Admission =
  | { ok: true; usage: number; state?: SessionState }
  | { ok: false; reason: "rate"; retryAfterMs: number }
  | { ok: false; reason: "budget"; usage: number }
  | { ok: false; reason: "unknown_session" }
  /** A person from the site's staff handles the conversation: no model turn (takeover, issue #16). */
  | { ok: false; reason: "taken_over"; name: string };

/**
 * The session's own limits, as its object checks them (one call before the provider): known session,
 * its token budget, its request rate, and for a model turn that no person handles the conversation.
 * Counts the request in `rate` when it passes the checks before.
 */
export function admitState(
  state: SessionState,
  rate: SlidingWindow,
  limits: { perMinute: number; tokenBudget: number; withState?: boolean; modelTurn?: boolean },
): Admission {
  if (!state.sessionId) return { ok: false, reason: "unknown_session" };
  if (limits.modelTurn && state.handler?.kind === "person")
    return { ok: false, reason: "taken_over", name: state.handler.name };
  const usage = state.usage?.totalTokens ?? 0;
  if (usage >= limits.tokenBudget) return { ok: false, reason: "budget", usage };
  const hit = rate.hit(limits.perMinute, 60_000, Date.now());
  if (!hit.ok) return { ok: false, reason: "rate", retryAfterMs: hit.retryAfterMs };
  return limits.withState ? { ok: true, usage, state } : { ok: true, usage };
}
