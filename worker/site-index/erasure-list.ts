import type { ErasureRow } from "../../shared/wire/admin-answers.ts";
import type { Eraser } from "../../shared/session/live.ts";

/** The most rows one listing answers (the newest first). */
const LIST_LIMIT = 500;

/**
 * The site's list of conversations erased by their visitors, beside the conversation index: what the
 * owner can see of an erasure (session/visitor-erasure.ts writes it), since the conversation itself,
 * its index row and its photos are gone.
 */
export class ErasureList {
  constructor(private readonly sql: SqlStorage) {
    sql.exec("CREATE TABLE IF NOT EXISTS erasures (sid TEXT PRIMARY KEY, by_whom TEXT NOT NULL, at INTEGER NOT NULL)");
  }

  note(sessionId: string, by: Eraser, at: number): void {
    this.sql.exec("INSERT OR REPLACE INTO erasures VALUES (?, ?, ?)", sessionId, by, at);
  }

  list(): ErasureRow[] {
    return this.sql
      .exec<{ sid: string; by_whom: Eraser; at: number }>(
        "SELECT sid, by_whom, at FROM erasures ORDER BY at DESC, sid DESC LIMIT ?",
        LIST_LIMIT,
      )
      .toArray()
      .map((r) => ({ sessionId: r.sid, by: r.by_whom, at: r.at }));
  }
}
