import { ApiError } from "../errors.ts";

/** How long a session refused for its budget waits for its admission here before the provider is asked. */
const BUDGET_REFUSAL_MS = 3_600_000;
const MAX_SESSIONS = 10_000;

/** Sessions this isolate saw refused, and until when: their next turns wait for the admission. */
const refused = new Map<string, number>();

/**
 * The chat route sends the provider's request while the session's object admits the turn; a
 * refused turn aborts it, but the provider may have counted its prompt. Once a session is refused
 * here, its turns wait for the admission until the refusal's Retry-After has passed, so a client
 * that keeps knocking costs at most one early request per refusal on each isolate.
 */
export function noteRefusal(sid: string, err: unknown): void {
  if (!(err instanceof ApiError) || err.status !== 429) return;
  const retry = Number(err.headers?.["retry-after"]);
  if (refused.size >= MAX_SESSIONS) refused.clear();
  refused.set(sid, Date.now() + (retry > 0 ? retry * 1000 : BUDGET_REFUSAL_MS));
}

export function recentlyRefused(sid: string): boolean {
  const until = refused.get(sid);
  if (until === undefined) return false;
  if (Date.now() < until) return true;
  refused.delete(sid);
  return false;
}
