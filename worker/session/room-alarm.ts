import { INDEX_DELAY_MS } from "./index-push.ts";

/**
 * The session object's one alarm, shared by two jobs: pushing its summary to the site's index at
 * most INDEX_DELAY_MS after a change (index-push.ts), and looking again whether anyone can come to
 * a visitor queued for a person (queue-expiry.ts). The alarm is set for the earlier of the two.
 */
export class RoomAlarm {
  /** A push of the summary is scheduled. */
  private indexDue = false;
  /** When the queued request is looked at again. */
  private queueCheckAt: number | null = null;

  constructor(private readonly storage: DurableObjectStorage) {}

  /** A change the index must hear of. */
  indexSoon(): void {
    if (this.indexDue) return;
    this.indexDue = true;
    void this.storage.setAlarm(Math.min(Date.now() + INDEX_DELAY_MS, this.queueCheckAt ?? Infinity));
  }

  queueAgainAt(at: number): void {
    this.queueCheckAt = at;
    // A pending push's alarm is sooner and runs the check too.
    if (!this.indexDue) void this.storage.setAlarm(at);
  }

  /**
   * The alarm rang: whether to push. After an eviction neither job is known: push (cheap,
   * idempotent) rather than risk a stale list. The queue is checked either way.
   */
  rang(): { push: boolean } {
    const push = this.indexDue || this.queueCheckAt === null;
    this.indexDue = false;
    this.queueCheckAt = null;
    return { push };
  }

  async clear(): Promise<void> {
    await this.storage.deleteAlarm();
    this.indexDue = false;
    this.queueCheckAt = null;
  }
}
