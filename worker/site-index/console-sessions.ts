/**
 * The console sessions a site has signed in: a row per cookie, until it expires or signs out. A
 * cookie whose row is gone is refused, however valid its signature (a copied cookie dies with it).
 */
export class ConsoleSessions {
  constructor(private readonly sql: SqlStorage) {
    sql.exec("CREATE TABLE IF NOT EXISTS console_sessions (id TEXT PRIMARY KEY, expires INTEGER NOT NULL)");
  }

  open(id: string, expiresAt: number, now: number): void {
    // Expired rows go as new ones come: the table holds only sessions that could still be used.
    this.sql.exec("DELETE FROM console_sessions WHERE expires <= ?", now);
    this.sql.exec("INSERT OR REPLACE INTO console_sessions (id, expires) VALUES (?, ?)", id, expiresAt);
  }

  alive(id: string, now: number): boolean {
    return this.sql.exec("SELECT 1 FROM console_sessions WHERE id = ? AND expires > ?", id, now).toArray().length > 0;
  }

  close(id: string): void {
    this.sql.exec("DELETE FROM console_sessions WHERE id = ?", id);
  }
}
