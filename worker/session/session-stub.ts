import type { Env } from "../env.ts";
import { jurisdictionOf, placed } from "../placement/jurisdiction.ts";

/**
 * The SessionRoom of a session id (minted by POST /v1/sessions: placement/jurisdiction.ts). The id names
 * its jurisdiction, if its site chose one, so every route reaches the object where it was created.
 */
export function sessionRoom(env: Env, sessionId: string) {
  const ns = placed(env, env.SESSION_ROOM, jurisdictionOf(sessionId));
  return ns.get(ns.idFromName(sessionId));
}
