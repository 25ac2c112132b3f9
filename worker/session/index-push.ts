import { sessionSteps, summarizeSession } from "../../shared/session/session-summary.ts";
import type { SessionState } from "../../shared/session/session.ts";
import type { Env } from "../env.ts";
import { jurisdictionOf } from "../placement/jurisdiction.ts";
import { indexedSummary, NO_PRIVACY, type RoomPrivacy } from "./room-privacy.ts";
import { siteIndex } from "../objects.ts";

/**
 * How long a session waits after a change before it pushes its summary to the site's index: the
 * bound on how stale the console's list is (plus the alarm's own delay, well under a second when
 * the runtime is healthy). Changes within the window go in one push, so a turn's reply, usage,
 * trace and advice cost the site's index one call, made by the session's object after the turn,
 * never by a request on its way to the provider.
 */
export const INDEX_DELAY_MS = 2_000;

/**
 * The same while a reply streams: its end is a change of its own, pushed INDEX_DELAY_MS after it,
 * so the visitor's message and the reply reach the index in one push, not two (the index is one
 * object per site, and every turn of the site's visitors calls it). A reply longer than this is
 * listed as far as it came meanwhile.
 */
export const INDEX_WHILE_STREAMING_MS = 30_000;

/**
 * A session's pushes to its site's index: the summary, and only the steps that are new or changed
 * since the last push. Sending every step each time would make a push cost as much as the conversation
 * is long (a row written for each step, in the site's one index object, and the list sent to it), so a
 * long conversation's turns would cost more and more. What was sent is kept in the object's memory: an
 * object that starts again sends every step once more, which rewrites the same rows.
 */
export class IndexPushes {
  /** Each step sent, as it was sent (its row's fields), by id. */
  private readonly sent = new Map<string, string>();

  /** The summary goes as the site's privacy settings let it (room-privacy.ts), to the index in its jurisdiction. */
  async push(env: Env, state: SessionState, privacy: RoomPrivacy = NO_PRIVACY): Promise<void> {
    if (!state.sessionId) return;
    const changed = sessionSteps(state)
      .map((step) => ({ step, row: JSON.stringify(step) }))
      .filter(({ step, row }) => this.sent.get(step.id) !== row);
    await siteIndex(env, { siteKey: state.siteKey, jurisdiction: jurisdictionOf(state.sessionId) }).record(
      state.siteKey,
      indexedSummary(summarizeSession(state), privacy),
      changed.map((c) => c.step),
    );
    // Only once the index has them: a failed push leaves them to the next.
    for (const { step, row } of changed) this.sent.set(step.id, row);
  }

  /** The session was erased: whatever comes next is sent in full. */
  clear(): void {
    this.sent.clear();
  }
}
