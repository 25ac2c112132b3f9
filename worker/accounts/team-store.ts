import type { AccountView, InvitationView, KeyView } from "../../shared/admin/accounts-api.ts";
import type { Role } from "../../shared/admin/roles.ts";
import type { RoleBy } from "./sso-role.ts";

/** Adds a column to a table made before it existed (CREATE TABLE IF NOT EXISTS leaves an old table as it is). */
function ensureColumn(sql: SqlStorage, table: string, column: string, definition: string): void {
  const has = sql.exec("SELECT 1 FROM pragma_table_info(?) WHERE name = ?", table, column).toArray().length > 0;
  if (!has) sql.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
}

/**
 * The site's people and keys, in its SiteAccounts object's SQLite: accounts, the identities an
 * account can be signed in by besides its passkeys (an OpenID Connect issuer and subject, for single
 * sign-on), invitations (only the digest of their secret) and named admin keys (only their digest).
 */
export class TeamStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS accounts (
      id TEXT PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL, created_at INTEGER NOT NULL,
      last_sign_in_at INTEGER)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS identities (
      issuer TEXT NOT NULL, subject TEXT NOT NULL, account_id TEXT NOT NULL, email TEXT NOT NULL DEFAULT '',
      created_at INTEGER NOT NULL, PRIMARY KEY (issuer, subject))`);
    sql.exec(`CREATE TABLE IF NOT EXISTS invitations (
      id TEXT PRIMARY KEY, token_sha256 TEXT NOT NULL UNIQUE, role TEXT NOT NULL, name TEXT NOT NULL,
      created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, created_by TEXT NOT NULL,
      used_at INTEGER, revoked_at INTEGER)`);
    // Who chose an account's role last (sso-role.ts), and the e-mail an invitation may be taken up by.
    ensureColumn(sql, "accounts", "role_by", "TEXT NOT NULL DEFAULT 'owner'");
    ensureColumn(sql, "invitations", "email", "TEXT NOT NULL DEFAULT ''");
    sql.exec(`CREATE TABLE IF NOT EXISTS admin_keys (
      id TEXT PRIMARY KEY, secret_sha256 TEXT NOT NULL, name TEXT NOT NULL, role TEXT NOT NULL,
      created_at INTEGER NOT NULL, created_by TEXT NOT NULL, last_used_at INTEGER, revoked_at INTEGER)`);
  }

  accounts(): AccountView[] {
    return this.sql
      .exec<Record<string, SqlStorageValue>>(
        `SELECT a.*, (SELECT COUNT(*) FROM passkeys p WHERE p.account_id = a.id) AS passkeys,
         EXISTS (SELECT 1 FROM identities i WHERE i.account_id = a.id) AS sso
         FROM accounts a ORDER BY a.created_at`,
      )
      .toArray()
      .map((r) => ({
        id: String(r.id),
        name: String(r.name),
        role: r.role as Role,
        createdAt: Number(r.created_at),
        lastSignInAt: r.last_sign_in_at === null ? null : Number(r.last_sign_in_at),
        passkeys: Number(r.passkeys),
        sso: Boolean(r.sso),
      }));
  }

  account(id: string): { id: string; name: string; role: Role } | null {
    const [r] = this.sql.exec("SELECT id, name, role FROM accounts WHERE id = ?", id).toArray();
    return r ? { id: String(r.id), name: String(r.name), role: r.role as Role } : null;
  }

  /** Who chose the account's role last. */
  roleBy(id: string): RoleBy {
    const [r] = this.sql.exec("SELECT role_by FROM accounts WHERE id = ?", id).toArray();
    return r?.role_by === "sso" ? "sso" : "owner";
  }

  /** The account an identity provider's user (issuer and subject) signs in as, if linked. */
  accountOfIdentity(issuer: string, subject: string): string | null {
    const [r] = this.sql
      .exec("SELECT account_id FROM identities WHERE issuer = ? AND subject = ?", issuer, subject)
      .toArray();
    return r ? String(r.account_id) : null;
  }

  /** Links the identity to the account, or notes its current e-mail. */
  linkIdentity(issuer: string, subject: string, accountId: string, email: string, now: number): void {
    this.sql.exec(
      `INSERT INTO identities (issuer, subject, account_id, email, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (issuer, subject) DO UPDATE SET email = excluded.email`,
      issuer,
      subject,
      accountId,
      email,
      now,
    );
  }

  /** The newest invitation waiting for this e-mail (unused, unrevoked, unexpired). */
  invitationForEmail(email: string, now: number): InvitationView | null {
    const [r] = this.sql
      .exec(
        `SELECT * FROM invitations WHERE email = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?
         ORDER BY created_at DESC LIMIT 1`,
        email,
        now,
      )
      .toArray();
    return r ? invitationView(r) : null;
  }

  owners(): number {
    return Number(this.sql.exec("SELECT COUNT(*) AS n FROM accounts WHERE role = 'owner'").one().n);
  }

  addAccount(id: string, name: string, role: Role, now: number, by: RoleBy = "owner"): void {
    this.sql.exec(
      "INSERT INTO accounts (id, name, role, created_at, role_by) VALUES (?, ?, ?, ?, ?)",
      id,
      name,
      role,
      now,
      by,
    );
  }

  setRole(id: string, role: Role, by: RoleBy = "owner"): void {
    this.sql.exec("UPDATE accounts SET role = ?, role_by = ? WHERE id = ?", role, by, id);
  }

  signedIn(id: string, now: number): void {
    this.sql.exec("UPDATE accounts SET last_sign_in_at = ? WHERE id = ?", now, id);
  }

  removeAccount(id: string): void {
    this.sql.exec("DELETE FROM identities WHERE account_id = ?", id);
    this.sql.exec("DELETE FROM accounts WHERE id = ?", id);
  }

  invitations(now: number): InvitationView[] {
    return this.sql
      .exec(
        `SELECT * FROM invitations WHERE used_at IS NULL AND revoked_at IS NULL AND expires_at > ?
         ORDER BY created_at`,
        now,
      )
      .toArray()
      .map(invitationView);
  }

  addInvitation(v: InvitationView, tokenSha256: string): void {
    this.sql.exec(
      `INSERT INTO invitations (id, token_sha256, role, name, email, created_at, expires_at, created_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      v.id,
      tokenSha256,
      v.role,
      v.name,
      v.email,
      v.createdAt,
      v.expiresAt,
      v.createdBy,
    );
  }

  /** The invitation of this secret's digest, whatever its state (the caller says why it is refused). */
  invitationByToken(
    tokenSha256: string,
  ): (InvitationView & { usedAt: number | null; revokedAt: number | null }) | null {
    const [r] = this.sql.exec("SELECT * FROM invitations WHERE token_sha256 = ?", tokenSha256).toArray();
    if (!r) return null;
    return {
      ...invitationView(r),
      usedAt: r.used_at === null ? null : Number(r.used_at),
      revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
    };
  }

  /** Marks it used, once: false when another request used it first. */
  useInvitation(id: string, now: number): boolean {
    return (
      this.sql.exec("UPDATE invitations SET used_at = ? WHERE id = ? AND used_at IS NULL", now, id).rowsWritten > 0
    );
  }

  revokeInvitation(id: string, now: number): boolean {
    return (
      this.sql.exec(
        "UPDATE invitations SET revoked_at = ? WHERE id = ? AND used_at IS NULL AND revoked_at IS NULL",
        now,
        id,
      ).rowsWritten > 0
    );
  }

  keys(): KeyView[] {
    return this.sql
      .exec("SELECT * FROM admin_keys WHERE revoked_at IS NULL ORDER BY created_at")
      .toArray()
      .map(keyView);
  }

  addKey(v: KeyView, secretSha256: string): void {
    this.sql.exec(
      "INSERT INTO admin_keys (id, secret_sha256, name, role, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?)",
      v.id,
      secretSha256,
      v.name,
      v.role,
      v.createdAt,
      v.createdBy,
    );
  }

  /** A live key by id whose secret has this digest, noting its use; null otherwise. */
  useKey(id: string, secretSha256: string, now: number): KeyView | null {
    const [r] = this.sql
      .exec("SELECT * FROM admin_keys WHERE id = ? AND secret_sha256 = ? AND revoked_at IS NULL", id, secretSha256)
      .toArray();
    if (!r) return null;
    // Last use to the minute: a script's every call would otherwise be a write.
    if (r.last_used_at === null || now - Number(r.last_used_at) > 60_000)
      this.sql.exec("UPDATE admin_keys SET last_used_at = ? WHERE id = ?", now, id);
    return keyView(r);
  }

  revokeKey(id: string, now: number): boolean {
    return (
      this.sql.exec("UPDATE admin_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", now, id).rowsWritten > 0
    );
  }
}

function invitationView(r: Record<string, SqlStorageValue>): InvitationView {
  return {
    id: String(r.id),
    role: r.role as Role,
    name: String(r.name),
    email: String(r.email ?? ""),
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    createdBy: String(r.created_by),
  };
}

function keyView(r: Record<string, SqlStorageValue>): KeyView {
  return {
    id: String(r.id),
    name: String(r.name),
    role: r.role as Role,
    createdAt: Number(r.created_at),
    lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
    createdBy: String(r.created_by),
  };
}
