import { PRESENCE_TTL_MS } from "../../shared/takeover/takeover-api.ts";

/**
 * Staff with the console's Live page open (takeover): a row per staff member, refreshed
 * by the page's heartbeat and removed when it closes. A visitor asking for a person is queued only
 * while one is present (and within the site's hours); a page that died without saying so stops
 * counting PRESENCE_TTL_MS after its last beat.
 */
export class StaffPresence {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(
      "CREATE TABLE IF NOT EXISTS staff_presence (id TEXT PRIMARY KEY, name TEXT NOT NULL, seen INTEGER NOT NULL)",
    );
  }

  beat(id: string, name: string, now: number): void {
    this.sql.exec("DELETE FROM staff_presence WHERE seen <= ?", now - PRESENCE_TTL_MS);
    this.sql.exec("INSERT OR REPLACE INTO staff_presence (id, name, seen) VALUES (?, ?, ?)", id, name, now);
  }

  leave(id: string): void {
    this.sql.exec("DELETE FROM staff_presence WHERE id = ?", id);
  }

  isPresent(id: string, now: number): boolean {
    return (
      this.sql.exec("SELECT 1 FROM staff_presence WHERE id = ? AND seen > ?", id, now - PRESENCE_TTL_MS).toArray()
        .length > 0
    );
  }

  present(now: number): number {
    const row = this.sql
      .exec<{ n: number }>("SELECT COUNT(*) AS n FROM staff_presence WHERE seen > ?", now - PRESENCE_TTL_MS)
      .one();
    return row.n;
  }
}
