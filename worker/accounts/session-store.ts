export interface SessionRow {
  id: string;
  /** "account" (the account's id in `actorId`) or "bootstrap" (the site's admin key). */
  actorKind: "account" | "bootstrap";
  actorId: string;
  expires: number;
  authAt: number;
}

/**
 * The console's signed-in sessions, each bound to who signed in: a row per cookie until it expires,
 * idles out or signs out. A cookie whose row is gone is refused however valid its signature; removing
 * an account or changing its role deletes its rows, so its cookies stop at once.
 */
export class SessionStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS console_sessions (
      id TEXT PRIMARY KEY, actor_kind TEXT NOT NULL, actor_id TEXT NOT NULL, expires INTEGER NOT NULL,
      last_seen INTEGER NOT NULL, auth_at INTEGER NOT NULL)`);
  }

  open(row: SessionRow, now: number): void {
    // Expired rows go as new ones come: the table holds only sessions that could still be used.
    this.sql.exec("DELETE FROM console_sessions WHERE expires <= ?", now);
    this.sql.exec(
      `INSERT OR REPLACE INTO console_sessions (id, actor_kind, actor_id, expires, last_seen, auth_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      row.id,
      row.actorKind,
      row.actorId,
      row.expires,
      now,
      row.authAt,
    );
  }

  /** The live session (not expired, used within `idleMs`), its last use now; null otherwise (and deleted). */
  touch(id: string, now: number, idleMs: number): SessionRow | null {
    const [r] = this.sql.exec("SELECT * FROM console_sessions WHERE id = ?", id).toArray();
    if (!r) return null;
    if (Number(r.expires) <= now || Number(r.last_seen) <= now - idleMs) {
      this.close(id);
      return null;
    }
    this.sql.exec("UPDATE console_sessions SET last_seen = ? WHERE id = ?", now, id);
    return {
      id,
      actorKind: r.actor_kind as SessionRow["actorKind"],
      actorId: String(r.actor_id),
      expires: Number(r.expires),
      authAt: Number(r.auth_at),
    };
  }

  close(id: string): void {
    this.sql.exec("DELETE FROM console_sessions WHERE id = ?", id);
  }

  /** Ends every session of this account (removed, or its role changed), but `keep` (the caller's own). */
  closeAccount(accountId: string, keep = ""): number {
    return this.sql.exec(
      "DELETE FROM console_sessions WHERE actor_kind = 'account' AND actor_id = ? AND id != ?",
      accountId,
      keep,
    ).rowsWritten;
  }

  /** Ends the sessions of every account linked to an identity provider (single sign-on turned off). */
  closeLinked(): number {
    return this.sql.exec(
      `DELETE FROM console_sessions WHERE actor_kind = 'account'
       AND actor_id IN (SELECT account_id FROM identities WHERE removed_at IS NULL)`,
    ).rowsWritten;
  }

  /** Ends every session opened with the bootstrap key (the key revoked). */
  closeBootstrap(): void {
    this.sql.exec("DELETE FROM console_sessions WHERE actor_kind = 'bootstrap'");
  }
}
