/**
 * Calendar slots a confirmation is booking right now, by its idempotency key (conversation and slot).
 * Cal.com checks a slot's availability and inserts the booking without a lock between the two
 * (github.com/calcom/cal.com/issues/13397), so two confirmations of one slot at once could both
 * book it: the site's object lets one through at a time. A claim lapses on its own after
 * `ttlMs`, so a worker that died mid-booking holds no slot for long.
 */
export class SlotClaims {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(
      "CREATE TABLE IF NOT EXISTS slot_claims (slot TEXT PRIMARY KEY, holder TEXT NOT NULL, until INTEGER NOT NULL)",
    );
  }

  /** The slot's holder after the claim: `holder` itself when it got it (one synchronous step of the object). */
  claim(slot: string, holder: string, ttlMs: number, now: number): string {
    this.sql.exec("DELETE FROM slot_claims WHERE until <= ?", now);
    const held = this.sql.exec<{ holder: string }>("SELECT holder FROM slot_claims WHERE slot = ?", slot).toArray();
    if (held.length) return held[0]!.holder;
    this.sql.exec("INSERT INTO slot_claims (slot, holder, until) VALUES (?, ?, ?)", slot, holder, now + ttlMs);
    return holder;
  }

  release(slot: string, holder: string): void {
    this.sql.exec("DELETE FROM slot_claims WHERE slot = ? AND holder = ?", slot, holder);
  }
}
