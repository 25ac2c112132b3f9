/**
 * The session object's one alarm, shared by three jobs: pushing its summary to the site's index a
 * while after a change (index-push.ts), looking again whether anyone can come to a visitor queued
 * for a person (queue-expiry.ts), and erasing a keep-nothing conversation (room-privacy.ts). The
 * alarm is set for the earliest. The times live in memory: the object works out after an eviction
 * what is due (the erasure from its stored last message).
 */
export class RoomAlarm {
  /** When the summary is pushed, if a push is scheduled. */
  private indexAt: number | null = null;
  /** When the queued request is looked at again. */
  private queueCheckAt: number | null = null;
  /** When a keep-nothing conversation is erased. */
  private eraseAt: number | null = null;

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

  erasesAt(at: number): void {
    if (this.eraseAt === at) return;
    this.eraseAt = at;
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
    this.eraseAt = null;
    return { push };
  }

  async clear(): Promise<void> {
    await this.storage.deleteAlarm();
    this.indexAt = null;
    this.queueCheckAt = null;
    this.eraseAt = null;
  }

  private schedule(): void {
    void this.storage.setAlarm(
      Math.min(this.indexAt ?? Infinity, this.queueCheckAt ?? Infinity, this.eraseAt ?? Infinity),
    );
  }
}
