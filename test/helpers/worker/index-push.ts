import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";

/**
 * Runs the sessions' pending index pushes now (their SessionRoom alarms), instead of waiting the
 * INDEX_DELAY_MS a session batches its changes for: the site's index then lists them as they are.
 */
export async function pushToIndex(...sessionIds: string[]): Promise<void> {
  for (const id of sessionIds) await runDurableObjectAlarm(env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(id)));
}
