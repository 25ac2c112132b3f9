import type { Role } from "../../shared/admin/roles.ts";
import type { SsoConfig } from "../../shared/config/sso-config.ts";
import type { IdentityStore } from "./identity-store.ts";
import { randomToken } from "./secrets.ts";
import type { SessionStore } from "./session-store.ts";
import { ssoRole } from "./sso-role.ts";
import type { TeamStore } from "./team-store.ts";

/** Who the identity provider vouched for, after the id token and the e-mail's domain were checked. */
export interface SsoPerson {
  issuer: string;
  subject: string;
  /** Lower case, verified (or not said otherwise, where the site allows that), at an allowed domain. */
  email: string;
  /** The provider said the e-mail is verified (`email_verified: true`): only then may it link an account. */
  emailVerified: boolean;
  /** The name to give a new account (the token's `name`, else the e-mail's local part). */
  name: string;
  claims: Record<string, unknown>;
}

/**
 * Why a sign-in found no account to open. `no_role`: no rule or default gives one; `removed`: an owner
 * removed the identity's account; `unverified`: an account has the e-mail but the provider does not
 * say it is verified, so it cannot prove it is that account's person; `linked_elsewhere`: that account
 * is linked to another user of the same provider (the address may have passed to someone else);
 * `ambiguous`: several accounts have the e-mail.
 */
export type SsoRefused = "no_role" | "removed" | "unverified" | "linked_elsewhere" | "ambiguous";

export type SsoSignIn =
  | { refused: SsoRefused; accountId: string }
  | {
      account: { id: string; name: string; role: Role };
      created: boolean;
      /** An account that existed (an invitation's, signing in with passkeys) was linked by its e-mail. */
      linked: boolean;
      /** The identity this sign-in came by. */
      identityId: string;
      /** The invitation a new account took up (its e-mail was this person's). */
      invitationId: string;
      /** The role the claim changed, when it did (the account's other sessions ended with it). */
      roleChanged: { from: Role; to: Role } | null;
      /** The claim would have demoted the site's last owner: the role stayed owner. */
      lastOwnerKept: boolean;
    };

type RoleConfig = Pick<SsoConfig, "roleClaim" | "roleMap" | "defaultRole">;

/**
 * The account an SSO sign-in is for, in one step of the site's object (nothing else runs between the
 * reads and the writes): the one its identity is linked to; else the one account an owner gave this
 * e-mail, linked now if the provider says the e-mail is verified; else a new one, taking up a waiting
 * invitation for that e-mail if there is one. An existing account's role is brought up to date from
 * the claim (sso-role.ts; the last owner stays owner). An identity whose account was removed comes
 * back only by a new invitation for its e-mail.
 */
export function signInIdentity(
  team: TeamStore,
  identities: IdentityStore,
  sessions: SessionStore,
  config: RoleConfig,
  p: SsoPerson,
  now: number,
): SsoSignIn {
  const known = identities.of(p.issuer, p.subject);
  const invitation = team.invitationForEmail(p.email, now);
  if (known?.removedAt && !invitation) return { refused: "removed", accountId: known.accountId };
  const linkedTo = known && !known.removedAt ? team.account(known.accountId) : null;
  if (linkedTo) return existing(team, identities, sessions, config, p, linkedTo.id, false, now);
  const byEmail = team.accountsByEmail(p.email);
  if (byEmail.length > 1) return { refused: "ambiguous", accountId: "" };
  if (byEmail.length === 1) {
    const id = byEmail[0]!;
    if (!p.emailVerified) return { refused: "unverified", accountId: id };
    if (identities.hasIssuer(id, p.issuer)) return { refused: "linked_elsewhere", accountId: id };
    return existing(team, identities, sessions, config, p, id, true, now);
  }
  const verdict = ssoRole(config, p.claims, null, invitation?.role ?? null);
  if ("refused" in verdict) return { refused: "no_role", accountId: "" };
  if (invitation) team.useInvitation(invitation.id, now);
  const created = { id: randomToken(9), name: invitation?.name || p.name, role: verdict.role };
  team.addAccount(created.id, created.name, created.role, now, verdict.by, p.email);
  identities.link(p.issuer, p.subject, created.id, p.email, now);
  return {
    account: created,
    created: true,
    linked: false,
    identityId: identities.of(p.issuer, p.subject)!.id,
    invitationId: invitation?.id ?? "",
    roleChanged: null,
    lastOwnerKept: false,
  };
}

/** Signs in to an account that exists: its role from the claim (the last owner kept), the identity linked. */
function existing(
  team: TeamStore,
  identities: IdentityStore,
  sessions: SessionStore,
  config: RoleConfig,
  p: SsoPerson,
  accountId: string,
  linking: boolean,
  now: number,
): SsoSignIn {
  const account = team.account(accountId)!;
  const verdict = ssoRole(config, p.claims, { role: account.role, by: team.roleBy(account.id) });
  if ("refused" in verdict) return { refused: "no_role", accountId: account.id };
  const lastOwnerKept = account.role === "owner" && verdict.role !== "owner" && team.owners() <= 1;
  let roleChanged: { from: Role; to: Role } | null = null;
  if (!lastOwnerKept && verdict.role !== account.role) {
    team.setRole(account.id, verdict.role, verdict.by);
    sessions.closeAccount(account.id);
    roleChanged = { from: account.role, to: verdict.role };
  } else if (!lastOwnerKept) team.setRole(account.id, verdict.role, verdict.by);
  identities.link(p.issuer, p.subject, account.id, p.email, now);
  const role = lastOwnerKept ? account.role : verdict.role;
  return {
    account: { ...account, role },
    created: false,
    linked: linking,
    identityId: identities.of(p.issuer, p.subject)!.id,
    invitationId: "",
    roleChanged,
    lastOwnerKept,
  };
}
