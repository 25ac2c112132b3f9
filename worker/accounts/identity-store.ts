import type { IdentityView } from "../../shared/admin/accounts-api.ts";
import { ensureColumn } from "./sql-columns.ts";

/** An identity provider's user as the site knows it: the account it signs in as, or its removal. */
export interface IdentityRow {
  id: string;
  accountId: string;
  /** When an owner removed its account: the identity is refused until an invitation for its e-mail. */
  removedAt: number | null;
}

/**
 * The identities an account can be signed in by besides its passkeys: an OpenID Connect issuer and
 * subject (the provider's user id, never the e-mail, which a provider may give to someone else later).
 * Removing an account keeps its identities as removed, so the provider cannot sign the person in again
 * as a new account by itself; an owner's invitation for the e-mail lets them back in.
 */
export class IdentityStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS identities (
      issuer TEXT NOT NULL, subject TEXT NOT NULL, account_id TEXT NOT NULL, email TEXT NOT NULL DEFAULT '',
      created_at INTEGER NOT NULL, PRIMARY KEY (issuer, subject))`);
    // An id the console and the routes name an identity by (issuer and subject are the provider's).
    if (ensureColumn(sql, "identities", "id", "TEXT NOT NULL DEFAULT ''"))
      sql.exec("UPDATE identities SET id = lower(hex(randomblob(9))) WHERE id = ''");
    ensureColumn(sql, "identities", "removed_at", "INTEGER");
  }

  of(issuer: string, subject: string): IdentityRow | null {
    const [r] = this.sql
      .exec("SELECT id, account_id, removed_at FROM identities WHERE issuer = ? AND subject = ?", issuer, subject)
      .toArray();
    if (!r) return null;
    return {
      id: String(r.id),
      accountId: String(r.account_id),
      removedAt: r.removed_at === null ? null : Number(r.removed_at),
    };
  }

  /** The account's live identities, oldest first. */
  ofAccount(accountId: string): IdentityView[] {
    return this.sql
      .exec(
        `SELECT id, issuer, email, created_at FROM identities WHERE account_id = ? AND removed_at IS NULL
         ORDER BY created_at`,
        accountId,
      )
      .toArray()
      .map((r) => ({
        id: String(r.id),
        issuer: String(r.issuer),
        email: String(r.email),
        createdAt: Number(r.created_at),
      }));
  }

  /** Whether the account has a live identity at this issuer (another subject than one being linked). */
  hasIssuer(accountId: string, issuer: string): boolean {
    return (
      this.sql
        .exec("SELECT 1 FROM identities WHERE account_id = ? AND issuer = ? AND removed_at IS NULL", accountId, issuer)
        .toArray().length > 0
    );
  }

  /** Links the identity to the account (a removed one anew), or notes its current e-mail. */
  link(issuer: string, subject: string, accountId: string, email: string, now: number): void {
    this.sql.exec(
      `INSERT INTO identities (issuer, subject, account_id, email, created_at, id, removed_at)
       VALUES (?, ?, ?, ?, ?, lower(hex(randomblob(9))), NULL)
       ON CONFLICT (issuer, subject) DO UPDATE SET email = excluded.email, account_id = excluded.account_id,
         created_at = CASE WHEN removed_at IS NULL THEN created_at ELSE excluded.created_at END,
         id = CASE WHEN removed_at IS NULL THEN id ELSE excluded.id END, removed_at = NULL`,
      issuer,
      subject,
      accountId,
      email,
      now,
    );
  }

  /** Unlinks one identity of the account: it signs in as nothing until it is linked again. */
  unlink(accountId: string, id: string): boolean {
    return (
      this.sql.exec("DELETE FROM identities WHERE account_id = ? AND id = ? AND removed_at IS NULL", accountId, id)
        .rowsWritten > 0
    );
  }

  /** The account was removed: its identities stay, marked, so they do not sign in again by themselves. */
  removeAccount(accountId: string, now: number): void {
    this.sql.exec("UPDATE identities SET removed_at = ? WHERE account_id = ? AND removed_at IS NULL", now, accountId);
  }
}
