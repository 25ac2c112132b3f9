import type { SiteConfig } from "../../shared/config/agent-config.ts";
import type { SessionState } from "../../shared/session/session.ts";
import { DEFAULT_UNAVAILABLE } from "../../shared/config/takeover-config.ts";
import type { Env } from "../env.ts";
import { nobodyAvailable } from "./takeover-availability.ts";

/**
 * How often a queued request looks again whether anyone can still come. Staff presence lapses
 * PRESENCE_TTL_MS after the last heartbeat; a visitor hears of it at most this much later.
 */
export const QUEUE_CHECK_MS = 15_000;

type Unavailable = Awaited<ReturnType<typeof nobodyAvailable>>;

/** The request still waiting for a person, if any (one with a person already is not waiting). */
export function queuedRequest(state: SessionState) {
  const r = state.personRequest;
  return state.handler?.kind !== "person" && r?.status === "queued" ? r : null;
}

/**
 * Whether a queued visitor should be told nobody is coming (takeover), checked by the session's
 * alarm with no request arriving: waited past the site's maximum, outside hours, or no staff
 * present any more. `next`: when to look again while it still waits.
 */
export async function queueVerdict(
  env: Env,
  site: SiteConfig,
  state: SessionState,
  now: number,
): Promise<{ unavailable: Unavailable; next: number } | null> {
  const request = queuedRequest(state);
  if (!request) return null;
  const deadline = request.at + site.takeover.maxWaitMinutes * 60_000;
  if (now >= deadline) {
    const text = site.takeover.unavailableMessage ?? DEFAULT_UNAVAILABLE;
    return { unavailable: { reason: "waited_too_long", text }, next: 0 };
  }
  return { unavailable: await nobodyAvailable(env, site, now), next: Math.min(now + QUEUE_CHECK_MS, deadline) };
}
