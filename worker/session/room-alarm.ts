/**
 * The session object's one alarm, shared by two jobs: pushing its summary to the site's index a
 * while after a change (index-push.ts), and looking again whether anyone can come to a visitor
 * queued for a person (queue-expiry.ts). The alarm is set for the earlier of the two.
 */
export class RoomAlarm {
  /** When the summary is pushed, if a push is scheduled. */
  private indexAt: number | null = null;
  /** When the queued request is looked at again. */
  private queueCheckAt: number | null = null;

  constructor(private readonly storage: DurableObjectStorage) {}

  /** A change the index must hear of within `ms`: sooner than a push already scheduled, or no change. */
  indexWithin(ms: number): void {
    const at = Date.now() + ms;
    if (this.indexAt !== null && this.indexAt <= at) return;
    this.indexAt = at;
    this.schedule();
  }

  queueAgainAt(at: number): void {
    this.queueCheckAt = at;
    this.schedule();
  }

  /**
   * The alarm rang: whether to push (a push scheduled later goes now too: cheap, and idempotent).
   * After an eviction neither job is known: push rather than risk a stale list. The queue is
   * checked either way, and sets its next look itself.
   */
  rang(): { push: boolean } {
    const push = this.indexAt !== null || this.queueCheckAt === null;
    this.indexAt = null;
    this.queueCheckAt = null;
    return { push };
  }

  async clear(): Promise<void> {
    await this.storage.deleteAlarm();
    this.indexAt = null;
    this.queueCheckAt = null;
  }

  private schedule(): void {
    void this.storage.setAlarm(Math.min(this.indexAt ?? Infinity, this.queueCheckAt ?? Infinity));
  }
}
