import { DurableObject } from "cloudflare:workers";
import type { IdentityView, InvitationView, KeyView, PasskeyView, TeamView } from "../../shared/admin/accounts-api.ts";
import type { AuditEntry, AuditVerdict } from "../../shared/admin/audit.ts";
import type { Role } from "../../shared/admin/roles.ts";
import type { SsoConfig } from "../../shared/config/sso-config.ts";
import type { Env } from "../env.ts";
import { loadSite } from "../config/config-store.ts";
import { AuditChain, type AuditDraft, type AuditFilter } from "./audit-chain.ts";
import { IdentityStore } from "./identity-store.ts";
import { PasskeyStore, type ChallengeFor, type StoredPasskey } from "./passkey-store.ts";
import { SessionStore, type SessionRow } from "./session-store.ts";
import { signInIdentity, type SsoPerson, type SsoSignIn } from "./sso-accounts.ts";
import { SsoStore, type SsoAttempt } from "./sso-store.ts";
import { TeamStore } from "./team-store.ts";

const DAY_MS = 86_400_000;

/** A refusal the routes turn into their 4xx answer (a Durable Object's RPC carries values, not error classes). */
export type Refusal = {
  refused: "last_owner" | "not_found" | "invitation_used" | "conflict" | "last_sign_in" | "email_taken";
};

/**
 * One per site: who may use its console and admin routes, and what they did. Accounts, their
 * passkeys and identities, invitations, named admin keys, the console's sessions and the audit
 * trail, in SQLite. An object of its own (not the site's SiteIndex): the index is written on every
 * conversation turn and its alarm erases conversations, while these rows must outlive any
 * conversation and be read on every admin request without queueing behind turns; and a role change
 * or a removal ends the account's sessions in the same transaction as the change.
 */
export class SiteAccounts extends DurableObject<Env> {
  private readonly team: TeamStore;
  private readonly identities: IdentityStore;
  private readonly passkeys: PasskeyStore;
  private readonly sessions: SessionStore;
  private readonly chain: AuditChain;
  private readonly sso: SsoStore;
  /** Appends run one after another: each hashes the one before it. */
  private appending: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    this.passkeys = new PasskeyStore(sql);
    this.identities = new IdentityStore(sql);
    this.team = new TeamStore(sql);
    this.sessions = new SessionStore(sql);
    this.chain = new AuditChain(sql);
    this.sso = new SsoStore(sql);
  }

  private meta(key: string): string | null {
    const [r] = this.ctx.storage.sql.exec("SELECT value FROM meta WHERE key = ?", key).toArray();
    return r ? String(r.value) : null;
  }

  private setMeta(key: string, value: string): void {
    this.ctx.storage.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", key, value);
  }

  /** The site this object is for: its alarm reads the site's audit retention. */
  private async remember(siteKey: string): Promise<void> {
    if (this.meta("site_key") === siteKey) return;
    this.setMeta("site_key", siteKey);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + DAY_MS);
  }

  // --- sessions and keys (every admin request) ---

  /** A console session, alive and idle less than `idleMs`, with its account as it is now. */
  async session(id: string, idleMs: number): Promise<(SessionRow & { name: string; role: Role }) | null> {
    const row = this.sessions.touch(id, Date.now(), idleMs);
    if (!row) return null;
    if (row.actorKind === "bootstrap") return { ...row, name: "", role: "owner" };
    const account = this.team.account(row.actorId);
    return account ? { ...row, name: account.name, role: account.role } : null;
  }

  async openSession(row: SessionRow): Promise<void> {
    this.sessions.open(row, Date.now());
    if (row.actorKind === "account") this.team.signedIn(row.actorId, Date.now());
  }

  async closeSession(id: string): Promise<void> {
    this.sessions.close(id);
  }

  async useKey(id: string, secretSha256: string): Promise<KeyView | null> {
    return this.team.useKey(id, secretSha256, Date.now());
  }

  /** Whether the site's original admin key (this digest of it) was revoked by an owner. */
  async bootstrapRevoked(digest: string): Promise<boolean> {
    return this.meta("bootstrap_revoked") === digest;
  }

  /** Revokes it; not while no account is owner (the site would be left without one). */
  async revokeBootstrap(digest: string): Promise<Refusal | { ok: true }> {
    if (this.team.owners() === 0) return { refused: "last_owner" };
    this.setMeta("bootstrap_revoked", digest);
    this.sessions.closeBootstrap();
    return { ok: true };
  }

  // --- the team ---

  async teamView(bootstrapActive: boolean): Promise<TeamView> {
    const now = Date.now();
    return {
      accounts: this.team.accounts().map((a) => ({ ...a, identities: this.identities.ofAccount(a.id) })),
      invitations: this.team.invitations(now),
      keys: this.team.keys(),
      bootstrapKey: bootstrapActive,
    };
  }

  async account(id: string) {
    return this.team.account(id);
  }

  /** An owner's change of the account's role (its sessions end) and of its e-mail (one account per address). */
  async changeAccount(
    id: string,
    change: { role?: Role | undefined; email?: string | undefined },
  ): Promise<Refusal | { ok: true; sessionsEnded: number }> {
    const account = this.team.account(id);
    if (!account) return { refused: "not_found" };
    const { role, email } = change;
    if (role && account.role === "owner" && role !== "owner" && this.team.owners() <= 1)
      return { refused: "last_owner" };
    if (email && this.team.accountsByEmail(email).some((other) => other !== id)) return { refused: "email_taken" };
    if (email !== undefined) this.team.setEmail(id, email);
    if (!role) return { ok: true, sessionsEnded: 0 };
    this.team.setRole(id, role);
    return { ok: true, sessionsEnded: this.sessions.closeAccount(id) };
  }

  async removeAccount(id: string): Promise<Refusal | { ok: true }> {
    const account = this.team.account(id);
    if (!account) return { refused: "not_found" };
    if (account.role === "owner" && this.team.owners() <= 1) return { refused: "last_owner" };
    this.passkeys.removeAll(id);
    this.identities.removeAccount(id, Date.now());
    this.team.removeAccount(id);
    this.sessions.closeAccount(id);
    return { ok: true };
  }

  async createInvitation(v: InvitationView, tokenSha256: string, siteKey: string): Promise<void> {
    await this.remember(siteKey);
    this.team.addInvitation(v, tokenSha256);
  }

  async accountWithEmail(email: string): Promise<boolean> {
    return this.team.accountsByEmail(email).length > 0;
  }

  async revokeInvitation(id: string): Promise<boolean> {
    return this.team.revokeInvitation(id, Date.now());
  }

  async invitation(tokenSha256: string) {
    return this.team.invitationByToken(tokenSha256);
  }

  async createKey(v: KeyView, secretSha256: string): Promise<void> {
    this.team.addKey(v, secretSha256);
  }

  async revokeKey(id: string): Promise<boolean> {
    return this.team.revokeKey(id, Date.now());
  }

  // --- passkeys ---

  async issueChallenge(challenge: string, what: ChallengeFor): Promise<void> {
    this.passkeys.issue(challenge, what, Date.now());
  }

  async takeChallenge(challenge: string): Promise<ChallengeFor | null> {
    return this.passkeys.take(challenge, Date.now());
  }

  async passkey(id: string): Promise<StoredPasskey | null> {
    return this.passkeys.byId(id);
  }

  async passkeyUsed(id: string, counter: number): Promise<boolean> {
    return this.passkeys.used(id, counter, Date.now());
  }

  async myPasskeys(accountId: string): Promise<PasskeyView[]> {
    return this.passkeys.ofAccount(accountId);
  }

  async credentialIds(accountId: string) {
    return this.passkeys.credentialIds(accountId);
  }

  /** The invitation's account and its first passkey, in one step with using the invitation (once). */
  async acceptInvitation(
    invitationId: string,
    account: { id: string; name: string; role: Role },
    passkey: StoredPasskey,
  ): Promise<Refusal | { ok: true }> {
    const now = Date.now();
    if (this.passkeys.byId(passkey.id)) return { refused: "conflict" };
    if (!this.team.useInvitation(invitationId, now)) return { refused: "invitation_used" };
    // The invitation's e-mail, so the person's single sign-on finds this account (unless another has it).
    const email = this.team.invitationEmail(invitationId);
    const free = email && this.team.accountsByEmail(email).length === 0;
    this.team.addAccount(account.id, account.name, account.role, now, "owner", free ? email : "");
    this.passkeys.add(passkey, "Passkey 1", now);
    return { ok: true };
  }

  async addPasskey(passkey: StoredPasskey, label: string): Promise<Refusal | { ok: true }> {
    if (this.passkeys.byId(passkey.id)) return { refused: "conflict" };
    if (!this.team.account(passkey.accountId)) return { refused: "not_found" };
    this.passkeys.add(passkey, label, Date.now());
    return { ok: true };
  }

  /** Removes one passkey; never the account's last way in (it could not sign in again). */
  async removePasskey(accountId: string, id: string): Promise<Refusal | { ok: true }> {
    const mine = this.passkeys.ofAccount(accountId);
    if (!mine.some((p) => p.id === id)) return { refused: "not_found" };
    if (mine.length + this.identities.ofAccount(accountId).length <= 1) return { refused: "conflict" };
    this.passkeys.remove(accountId, id);
    return { ok: true };
  }

  async myIdentities(accountId: string): Promise<IdentityView[]> {
    return this.identities.ofAccount(accountId);
  }

  /**
   * Unlinks one of the account's provider identities, never its last way in; the account's sessions
   * end (one may have come by that identity), except `keepSession`, the caller's own. Its e-mail is
   * cleared too, or the provider's next sign-in would link it again by that address: an owner sets it
   * again on Team to allow that.
   */
  async unlinkIdentity(accountId: string, id: string, keepSession = ""): Promise<Refusal | { ok: true }> {
    const mine = this.identities.ofAccount(accountId);
    if (!mine.some((i) => i.id === id)) return { refused: "not_found" };
    if (mine.length + this.passkeys.ofAccount(accountId).length <= 1) return { refused: "last_sign_in" };
    this.identities.unlink(accountId, id);
    this.team.setEmail(accountId, "");
    this.sessions.closeAccount(accountId, keepSession);
    return { ok: true };
  }

  // --- single sign-on ---

  async ssoBegin(attempt: SsoAttempt): Promise<void> {
    this.sso.begin(attempt, Date.now());
  }

  async ssoTake(state: string): Promise<SsoAttempt | null> {
    return this.sso.take(state, Date.now());
  }

  /** Single sign-on turned off: the sessions of accounts linked to a provider end. */
  async ssoOff(): Promise<number> {
    return this.sessions.closeLinked();
  }

  /** The account of a person the identity provider vouched for (sso-accounts.ts), made or updated. */
  async ssoSignIn(config: Pick<SsoConfig, "roleClaim" | "roleMap" | "defaultRole">, p: SsoPerson): Promise<SsoSignIn> {
    return signInIdentity(this.team, this.identities, this.sessions, config, p, Date.now());
  }

  // --- the audit trail ---

  async audit(draft: AuditDraft, siteKey: string): Promise<AuditEntry> {
    await this.remember(siteKey);
    const next = this.appending.then(() => this.chain.append(draft));
    this.appending = next.catch(() => undefined);
    return next;
  }

  async auditList(filter: AuditFilter, limit: number): Promise<AuditEntry[]> {
    return this.chain.list(filter, limit);
  }

  async auditVerify(): Promise<AuditVerdict> {
    await this.appending;
    return this.chain.verify();
  }

  /** The audit trail's own retention (the site's `auditRetentionDays`), daily; the purge is itself an entry. */
  override async alarm(): Promise<void> {
    const siteKey = this.meta("site_key");
    const site = siteKey ? await loadSite(this.env, siteKey) : null;
    if (!siteKey || !site) return;
    const removed = this.chain.purge(Date.now() - site.auditRetentionDays * DAY_MS);
    if (removed > 0)
      await this.audit(
        {
          at: Date.now(),
          actorKind: "anonymous",
          actorId: "retention",
          actorName: "Retention",
          action: "audit.purge",
          object: String(removed),
          outcome: "ok",
          code: "",
          ip: "",
          userAgent: "",
        },
        siteKey,
      );
    await this.ctx.storage.setAlarm(Date.now() + DAY_MS);
  }
}
