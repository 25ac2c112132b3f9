import type { Env } from "../env.ts";
import { deleteSessionPhotos } from "../photos/photo-store.ts";
import { siteIndex } from "../site-index/site-index.ts";
import { jurisdictionOf } from "../placement/jurisdiction.ts";
import { sessionRoom } from "./session-stub.ts";

/**
 * Everything a conversation left, except its row in the site's index: its event log (the
 * SessionRoom's storage) and its photos (R2). The one place erasure happens, for the owner's
 * delete and the retention purge alike: whatever else is stored per session is erased here too.
 */
export async function eraseSessionData(env: Env, siteKey: string, sessionId: string): Promise<void> {
  if (await sessionRoom(env, sessionId).erase(siteKey)) await deleteSessionPhotos(env, siteKey, sessionId);
}

/** The visitor's right to erasure: the conversation's data, then its index row (placed as its id says). */
export async function eraseSession(env: Env, siteKey: string, sessionId: string): Promise<void> {
  await eraseSessionData(env, siteKey, sessionId);
  await siteIndex(env, { siteKey, jurisdiction: jurisdictionOf(sessionId) }).forget(sessionId);
}
