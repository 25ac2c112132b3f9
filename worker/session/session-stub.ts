import type { Env } from "../env.ts";

/** The SessionRoom of a session id; ids are random UUIDs minted by POST /v1/sessions. */
export function sessionRoom(env: Env, sessionId: string) {
  return env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(sessionId));
}
