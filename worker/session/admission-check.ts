import type { ConsentKind } from "../../shared/session/consent.ts";
import type { SessionState } from "../../shared/session/session.ts";
import type { SlidingWindow } from "../limits/sliding-window.ts";
import { turnIdRefusal, type IdRefusal, type TurnIds } from "./message-ids.ts";

export type Admission =
  | { ok: true; usage: number; state?: SessionState }
  | { ok: false; reason: "rate"; retryAfterMs: number }
  | { ok: false; reason: "budget"; usage: number }
  | { ok: false; reason: "unknown_session" }
  /** A person from the site's staff handles the conversation: no model turn (takeover). */
  | { ok: false; reason: "taken_over"; name: string }
  /** The turn names an id it may not use: a stored message's, a staff id (message-ids.ts). */
  | { ok: false; reason: "ids"; refusal: IdRefusal }
  /** The visitor has not agreed to the current version of this kind's consent notice. */
  | { ok: false; reason: "consent"; kind: ConsentKind };

/** The consent versions a request needs agreed, by kind (the route worked them out from the config). */
export type ConsentVersions = Partial<Record<ConsentKind, string>>;

/**
 * The session's own limits, as its object checks them (one call before the provider): known session,
 * the consent the agent asks (its current versions agreed), its token budget, its request rate, for a
 * model turn that no person handles the conversation, and that the turn's ids name new messages
 * (`turn`; `live`: the replies streaming now). Counts the request in `rate` when it passes the checks before.
 */
export function admitState(
  state: SessionState,
  rate: SlidingWindow,
  limits: {
    perMinute: number;
    tokenBudget: number;
    withState?: boolean;
    modelTurn?: boolean;
    turn?: TurnIds;
    consent?: ConsentVersions;
  },
  live: ReadonlySet<string> = new Set(),
): Admission {
  if (!state.sessionId) return { ok: false, reason: "unknown_session" };
  for (const [kind, version] of Object.entries(limits.consent ?? {}) as Array<[ConsentKind, string]>)
    if (state.consent?.[kind]?.version !== version) return { ok: false, reason: "consent", kind };
  if (limits.modelTurn && state.handler?.kind === "person")
    return { ok: false, reason: "taken_over", name: state.handler.name };
  const refusal = limits.turn && turnIdRefusal(state, limits.turn, live);
  if (refusal) return { ok: false, reason: "ids", refusal };
  const usage = state.usage?.totalTokens ?? 0;
  if (usage >= limits.tokenBudget) return { ok: false, reason: "budget", usage };
  const hit = rate.hit(limits.perMinute, 60_000, Date.now());
  if (!hit.ok) return { ok: false, reason: "rate", retryAfterMs: hit.retryAfterMs };
  return limits.withState ? { ok: true, usage, state } : { ok: true, usage };
}
