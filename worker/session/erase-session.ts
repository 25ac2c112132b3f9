import type { Eraser } from "../../shared/session/live.ts";
import type { Env } from "../env.ts";
import { deleteSessionPhotos } from "../photos/photo-store.ts";
import { jurisdictionOf } from "../placement/jurisdiction.ts";
import { siteIndex, sessionRoom } from "../objects.ts";

/**
 * Everything a conversation left, except its row in the site's index: its event log (the
 * SessionRoom's storage) and its photos (R2). The one place erasure happens, for the owner's
 * delete, the visitor's own and the retention purge alike: whatever else is stored per session is
 * erased here too. Answers whether the session's object still held the conversation.
 */
export async function eraseSessionData(
  env: Env,
  siteKey: string,
  sessionId: string,
  by: Eraser = "owner",
): Promise<boolean> {
  if (!(await sessionRoom(env, sessionId).erase(siteKey, by))) return false;
  await deleteSessionPhotos(env, siteKey, sessionId);
  return true;
}

/** The right to erasure (the owner's delete, the visitor's own): the conversation's data, then its index row
 * (placed as its id says). */
export async function eraseSession(
  env: Env,
  siteKey: string,
  sessionId: string,
  by: Eraser = "owner",
): Promise<boolean> {
  const held = await eraseSessionData(env, siteKey, sessionId, by);
  await siteIndex(env, { siteKey, jurisdiction: jurisdictionOf(sessionId) }).forget(sessionId);
  return held;
}
