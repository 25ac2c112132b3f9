import type { AccountView, InvitationView, KeyView } from "../../shared/admin/accounts-api.ts";
import type { Role } from "../../shared/admin/roles.ts";
import { ensureColumn } from "./sql-columns.ts";
import type { RoleBy } from "./sso-role.ts";

/**
 * The site's people and keys, in its SiteAccounts object's SQLite: accounts (with the e-mail single
 * sign-on links them by; their provider identities are identity-store.ts's), invitations (only the
 * digest of their secret) and named admin keys (only their digest).
 */
export class TeamStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS accounts (
      id TEXT PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL, created_at INTEGER NOT NULL,
      last_sign_in_at INTEGER)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS invitations (
      id TEXT PRIMARY KEY, token_sha256 TEXT NOT NULL UNIQUE, role TEXT NOT NULL, name TEXT NOT NULL,
      created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, created_by TEXT NOT NULL,
      used_at INTEGER, revoked_at INTEGER)`);
    // Who chose an account's role last (sso-role.ts), and the e-mail an invitation may be taken up by.
    ensureColumn(sql, "accounts", "role_by", "TEXT NOT NULL DEFAULT 'owner'");
    ensureColumn(sql, "invitations", "email", "TEXT NOT NULL DEFAULT ''");
    ensureColumn(sql, "accounts", "email", "TEXT NOT NULL DEFAULT ''");
    sql.exec(`CREATE TABLE IF NOT EXISTS admin_keys (
      id TEXT PRIMARY KEY, secret_sha256 TEXT NOT NULL, name TEXT NOT NULL, role TEXT NOT NULL,
      created_at INTEGER NOT NULL, created_by TEXT NOT NULL, last_used_at INTEGER, revoked_at INTEGER)`);
  }

  /** The accounts, their identities left for the caller to add. */
  accounts(): Array<Omit<AccountView, "identities">> {
    return this.sql
      .exec<Record<string, SqlStorageValue>>(
        `SELECT a.*, (SELECT COUNT(*) FROM passkeys p WHERE p.account_id = a.id) AS passkeys,
         EXISTS (SELECT 1 FROM identities i WHERE i.account_id = a.id AND i.removed_at IS NULL) AS sso
         FROM accounts a ORDER BY a.created_at`,
      )
      .toArray()
      .map((r) => ({
        id: String(r.id),
        name: String(r.name),
        role: r.role as Role,
        createdAt: Number(r.created_at),
        lastSignInAt: r.last_sign_in_at === null ? null : Number(r.last_sign_in_at),
        email: String(r.email),
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

  /** The accounts an owner gave this e-mail (by an invitation, on Team, or their first SSO sign-in). */
  accountsByEmail(email: string): string[] {
    return this.sql
      .exec("SELECT id FROM accounts WHERE email = ?", email)
      .toArray()
      .map((r) => String(r.id));
  }

  setEmail(id: string, email: string): void {
    this.sql.exec("UPDATE accounts SET email = ? WHERE id = ?", email, id);
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

  addAccount(id: string, name: string, role: Role, now: number, by: RoleBy = "owner", email = ""): void {
    this.sql.exec(
      "INSERT INTO accounts (id, name, role, created_at, role_by, email) VALUES (?, ?, ?, ?, ?, ?)",
      id,
      name,
      role,
      now,
      by,
      email,
    );
  }

  setRole(id: string, role: Role, by: RoleBy = "owner"): void {
    this.sql.exec("UPDATE accounts SET role = ?, role_by = ? WHERE id = ?", role, by, id);
  }

  signedIn(id: string, now: number): void {
    this.sql.exec("UPDATE accounts SET last_sign_in_at = ? WHERE id = ?", now, id);
  }

  removeAccount(id: string): void {
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

  /** The e-mail an invitation was made for ("" for none, or no such invitation). */
  invitationEmail(id: string): string {
    const [r] = this.sql.exec("SELECT email FROM invitations WHERE id = ?", id).toArray();
    return r ? String(r.email) : "";
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
