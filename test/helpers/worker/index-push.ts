import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sessionRoom } from "../../../worker/objects.ts";

/**
 * Runs the sessions' pending index pushes now (their SessionRoom alarms), instead of waiting the
 * INDEX_DELAY_MS a session batches its changes for: the site's index then lists them as they are.
 * The object is found as the worker finds it (in its site's jurisdiction, if any).
 */
export async function pushToIndex(...sessionIds: string[]): Promise<void> {
  for (const id of sessionIds) await runDurableObjectAlarm(sessionRoom(env, id));
}
