import type { SessionState } from "../../shared/session/session.ts";

/** Text for the site's owner about one trace step: the provider's own words on a failed completion. */
export interface OwnerNote {
  /** The trace step's event id. */
  step: string;
  text: string;
}

/** A note is a provider's message (at most 500 characters) and a sentence around it. */
const MAX_NOTE = 800;

/**
 * What the owner reads beside a session's trace and a visitor never does. The event log is the
 * visitor's too (their page restores it, the live channel sends each event), so a provider's error
 * text, which may quote the owner's account, is kept in a table of its own in the session's object
 * and joined to its step only for the owner's routes (SessionRoom.ownerState). Erased with the rest
 * of the object's storage.
 */
export class OwnerNotes {
  constructor(private readonly sql: SqlStorage) {}

  static createTable(sql: SqlStorage): void {
    sql.exec("CREATE TABLE IF NOT EXISTS owner_notes (step TEXT PRIMARY KEY, text TEXT NOT NULL)");
  }

  add(notes: readonly OwnerNote[]): void {
    for (const n of notes)
      this.sql.exec("INSERT OR IGNORE INTO owner_notes (step, text) VALUES (?, ?)", n.step, n.text.slice(0, MAX_NOTE));
  }

  /** The trace with each noted step's note in its detail (`providerMessage`). */
  withNotes(trace: SessionState["trace"]): SessionState["trace"] {
    const notes = new Map(
      this.sql
        .exec<{ step: string; text: string }>("SELECT step, text FROM owner_notes")
        .toArray()
        .map((r) => [r.step, r.text]),
    );
    if (!notes.size) return trace;
    return trace.map((t) => {
      const note = notes.get(t.id);
      return note === undefined ? t : { ...t, detail: { ...t.detail, providerMessage: note } };
    });
  }
}
