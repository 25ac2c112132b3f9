/**
 * The console sign-in links a site has used (their tokens' digests), kept until they would have
 * expired anyway: the one place that decides a link's single use, read and written in one step.
 */
export class UsedSignInLinks {
  constructor(private readonly sql: SqlStorage) {
    sql.exec("CREATE TABLE IF NOT EXISTS used_sign_in_links (digest TEXT PRIMARY KEY, expires INTEGER NOT NULL)");
  }

  /** True the first time a link is claimed, false ever after (one synchronous step of the site's object). */
  claim(digest: string, expiresAt: number, now: number): boolean {
    this.sql.exec("DELETE FROM used_sign_in_links WHERE expires <= ?", now);
    if (this.sql.exec("SELECT 1 FROM used_sign_in_links WHERE digest = ?", digest).toArray().length) return false;
    this.sql.exec("INSERT INTO used_sign_in_links (digest, expires) VALUES (?, ?)", digest, expiresAt);
    return true;
  }
}
