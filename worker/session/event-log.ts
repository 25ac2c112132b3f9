import { foldSession, reduceSession, type SessionState } from "../../shared/session/session.ts";
import { OwnerNotes } from "./owner-notes.ts";
import { replacesStored } from "./message-ids.ts";
import { ToolResults } from "./tool-results.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

export interface LoggedEvent {
  seq: number;
  event: SessionEvent;
}

/**
 * A session's append-only event log in its object's SQLite, and the tables beside it: the one
 * source of truth, from which the state is folded by the shared reducer. An event id already
 * stored is ignored, so a retried append stores nothing twice; so is a message event that would
 * replace a stored message (message-ids.ts).
 */
export class EventLog {
  constructor(private readonly storage: DurableObjectStorage) {
    this.createTables();
  }

  /** The object's tables (again after an erase). */
  createTables(): void {
    const { sql } = this.storage;
    sql.exec(
      "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY " +
        "AUTOINCREMENT, id TEXT NOT NULL UNIQUE, body TEXT NOT NULL)",
    );
    // A streaming reply's text, written down each second as the part since the last (reply-runner.ts).
    sql.exec(
      "CREATE TABLE IF NOT EXISTS live_reply_parts (id TEXT NOT NULL, o INTEGER NOT NULL, " +
        "text TEXT NOT NULL, PRIMARY KEY (id, o))",
    );
    ToolResults.createTable(sql);
    OwnerNotes.createTable(sql);
  }

  /** The state the whole log folds to (the object's start). */
  fold(): SessionState {
    const rows = this.storage.sql.exec<{ body: string }>("SELECT body FROM events ORDER BY seq").toArray();
    return foldSession(rows.map((r) => JSON.parse(r.body) as SessionEvent));
  }

  /**
   * Appends in one transaction (one commit for a turn's reply, usage and trace, not one each);
   * answers the state after them and the entries that were new.
   */
  append(state: SessionState, events: SessionEvent[]): { state: SessionState; added: LoggedEvent[] } {
    const added: LoggedEvent[] = [];
    this.storage.transactionSync(() => {
      for (const event of events) {
        if (replacesStored(state, event)) continue;
        const row = this.storage.sql
          .exec<{ seq: number }>(
            "INSERT OR IGNORE INTO events (id, body) VALUES (?, ?) RETURNING seq",
            event.id,
            JSON.stringify(event),
          )
          .toArray()[0];
        if (!row) continue;
        state = reduceSession(state, event);
        added.push({ seq: row.seq, event });
      }
    });
    return { state, added };
  }

  after(afterSeq: number): LoggedEvent[] {
    return this.storage.sql
      .exec<{ seq: number; body: string }>("SELECT seq, body FROM events WHERE seq > ? ORDER BY seq", afterSeq)
      .toArray()
      .map((r) => ({ seq: r.seq, event: JSON.parse(r.body) as SessionEvent }));
  }
}
