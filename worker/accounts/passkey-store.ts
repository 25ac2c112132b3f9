import type { PasskeyView } from "../../shared/admin/accounts-api.ts";

export interface StoredPasskey {
  id: string;
  accountId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
}

/** What a challenge was issued for: a sign-in, an invitation's first passkey, an account's further one. */
export interface ChallengeFor {
  purpose: "sign_in" | "invitation" | "add_passkey";
  /** The invitation's id, or the account's; "" for a sign-in. */
  subject: string;
}

/** A challenge is good for this long, and for one answer. */
export const CHALLENGE_MS = 5 * 60_000;

/**
 * Passkeys (WebAuthn credentials: id, public key, signature counter) of the site's accounts, and the
 * challenges issued to register or use one. A challenge is deleted by the answer that uses it, so
 * an answer replayed finds none.
 */
export class PasskeyStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS passkeys (
      id TEXT PRIMARY KEY, account_id TEXT NOT NULL, public_key BLOB NOT NULL, counter INTEGER NOT NULL,
      transports TEXT NOT NULL, label TEXT NOT NULL, created_at INTEGER NOT NULL, last_used_at INTEGER)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS challenges (
      challenge TEXT PRIMARY KEY, purpose TEXT NOT NULL, subject TEXT NOT NULL, expires INTEGER NOT NULL)`);
  }

  issue(challenge: string, what: ChallengeFor, now: number): void {
    this.sql.exec("DELETE FROM challenges WHERE expires <= ?", now);
    this.sql.exec(
      "INSERT INTO challenges (challenge, purpose, subject, expires) VALUES (?, ?, ?, ?)",
      challenge,
      what.purpose,
      what.subject,
      now + CHALLENGE_MS,
    );
  }

  /** Takes the challenge (it can be answered once): what it was issued for, or null if unknown or expired. */
  take(challenge: string, now: number): ChallengeFor | null {
    const [r] = this.sql.exec("SELECT * FROM challenges WHERE challenge = ?", challenge).toArray();
    if (!r) return null;
    this.sql.exec("DELETE FROM challenges WHERE challenge = ?", challenge);
    if (Number(r.expires) <= now) return null;
    return { purpose: r.purpose as ChallengeFor["purpose"], subject: String(r.subject) };
  }

  byId(id: string): StoredPasskey | null {
    const [r] = this.sql.exec("SELECT * FROM passkeys WHERE id = ?", id).toArray();
    return r
      ? {
          id: String(r.id),
          accountId: String(r.account_id),
          publicKey: new Uint8Array(r.public_key as ArrayBuffer),
          counter: Number(r.counter),
          transports: JSON.parse(String(r.transports)) as string[],
        }
      : null;
  }

  ofAccount(accountId: string): PasskeyView[] {
    return this.sql
      .exec(
        "SELECT id, label, created_at, last_used_at FROM passkeys WHERE account_id = ? ORDER BY created_at",
        accountId,
      )
      .toArray()
      .map((r) => ({
        id: String(r.id),
        label: String(r.label),
        createdAt: Number(r.created_at),
        lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
      }));
  }

  credentialIds(accountId: string): Array<{ id: string; transports: string[] }> {
    return this.sql
      .exec("SELECT id, transports FROM passkeys WHERE account_id = ?", accountId)
      .toArray()
      .map((r) => ({ id: String(r.id), transports: JSON.parse(String(r.transports)) as string[] }));
  }

  add(p: StoredPasskey, label: string, now: number): void {
    this.sql.exec(
      `INSERT INTO passkeys (id, account_id, public_key, counter, transports, label, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      p.id,
      p.accountId,
      p.publicKey,
      p.counter,
      JSON.stringify(p.transports),
      label,
      now,
    );
  }

  /**
   * Records a use: the new counter must be above the stored one (both 0: an authenticator without
   * a counter). False when it is not, so two answers with the same counter cannot both sign in.
   */
  used(id: string, counter: number, now: number): boolean {
    return (
      this.sql.exec(
        "UPDATE passkeys SET counter = ?, last_used_at = ? WHERE id = ? AND (counter < ? OR (counter = 0 AND ? = 0))",
        counter,
        now,
        id,
        counter,
        counter,
      ).rowsWritten > 0
    );
  }

  count(accountId: string): number {
    return Number(this.sql.exec("SELECT COUNT(*) AS n FROM passkeys WHERE account_id = ?", accountId).one().n);
  }

  remove(accountId: string, id: string): boolean {
    return this.sql.exec("DELETE FROM passkeys WHERE id = ? AND account_id = ?", id, accountId).rowsWritten > 0;
  }

  removeAll(accountId: string): void {
    this.sql.exec("DELETE FROM passkeys WHERE account_id = ?", accountId);
  }
}
