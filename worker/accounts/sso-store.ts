/** A single sign-on begun in a browser, kept until the provider sends the browser back (once). */
export interface SsoAttempt {
  /** The `state` sent to the provider: the site key (base64url), a dot, 32 random bytes. */
  state: string;
  /** SHA-256 of the binding cookie's value: the callback must come from the browser that started. */
  bindingSha256: string;
  nonce: string;
  /** PKCE's secret half: it never leaves the worker; the provider saw only its S256 digest. */
  verifier: string;
  /** Seconds the provider's own sign-in may be old (`max_age`), for a sign-in that must be fresh; 0: any. */
  maxAge: number;
  expires: number;
}

/** A sign-in at the provider is good for this long: typing a password and a second factor takes time. */
export const SSO_ATTEMPT_MS = 10 * 60_000;

/**
 * The site's single sign-ons under way, in its SiteAccounts object. An attempt is deleted by the
 * callback that uses it (so a state answers once) and expired ones go as new ones come.
 */
export class SsoStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS sso_attempts (
      state TEXT PRIMARY KEY, binding_sha256 TEXT NOT NULL, nonce TEXT NOT NULL, verifier TEXT NOT NULL,
      max_age INTEGER NOT NULL, expires INTEGER NOT NULL)`);
  }

  begin(a: SsoAttempt, now: number): void {
    this.sql.exec("DELETE FROM sso_attempts WHERE expires <= ?", now);
    this.sql.exec(
      "INSERT INTO sso_attempts (state, binding_sha256, nonce, verifier, max_age, expires) VALUES (?, ?, ?, ?, ?, ?)",
      a.state,
      a.bindingSha256,
      a.nonce,
      a.verifier,
      a.maxAge,
      a.expires,
    );
  }

  /** Takes the attempt of this state (it answers once): null when unknown, used or expired. */
  take(state: string, now: number): SsoAttempt | null {
    const [r] = this.sql.exec("SELECT * FROM sso_attempts WHERE state = ?", state).toArray();
    if (!r) return null;
    this.sql.exec("DELETE FROM sso_attempts WHERE state = ?", state);
    if (Number(r.expires) <= now) return null;
    return {
      state,
      bindingSha256: String(r.binding_sha256),
      nonce: String(r.nonce),
      verifier: String(r.verifier),
      maxAge: Number(r.max_age),
      expires: Number(r.expires),
    };
  }
}
