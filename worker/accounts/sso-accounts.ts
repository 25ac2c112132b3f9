import type { Role } from "../../shared/admin/roles.ts";
import type { SsoConfig } from "../../shared/config/sso-config.ts";
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
  /** The name to give a new account (the token's `name`, else the e-mail's local part). */
  name: string;
  claims: Record<string, unknown>;
}

export type SsoSignIn =
  | { refused: "no_role"; accountId: string }
  | {
      account: { id: string; name: string; role: Role };
      created: boolean;
      /** The invitation a new account took up (its e-mail was this person's). */
      invitationId: string;
      /** The role the claim changed, when it did (the account's other sessions ended with it). */
      roleChanged: { from: Role; to: Role } | null;
      /** The claim would have demoted the site's last owner: the role stayed owner. */
      lastOwnerKept: boolean;
    };

/**
 * The account an SSO sign-in is for, in one step of the site's object (nothing else runs between the
 * reads and the writes): the one its identity is linked to, with its role brought up to date from
 * the claim (sso-role.ts; the last owner stays owner); else a new one, taking up a waiting invitation
 * for that e-mail if there is one.
 */
export function signInIdentity(
  team: TeamStore,
  sessions: SessionStore,
  config: Pick<SsoConfig, "roleClaim" | "roleMap" | "defaultRole">,
  p: SsoPerson,
  now: number,
): SsoSignIn {
  const linked = team.accountOfIdentity(p.issuer, p.subject);
  const account = linked ? team.account(linked) : null;
  if (account) {
    const verdict = ssoRole(config, p.claims, { role: account.role, by: team.roleBy(account.id) });
    if ("refused" in verdict) return { refused: "no_role", accountId: account.id };
    const lastOwnerKept = account.role === "owner" && verdict.role !== "owner" && team.owners() <= 1;
    let roleChanged: { from: Role; to: Role } | null = null;
    if (!lastOwnerKept && verdict.role !== account.role) {
      team.setRole(account.id, verdict.role, verdict.by);
      sessions.closeAccount(account.id);
      roleChanged = { from: account.role, to: verdict.role };
    } else if (!lastOwnerKept) team.setRole(account.id, verdict.role, verdict.by);
    team.linkIdentity(p.issuer, p.subject, account.id, p.email, now);
    const role = lastOwnerKept ? account.role : verdict.role;
    return { account: { ...account, role }, created: false, invitationId: "", roleChanged, lastOwnerKept };
  }
  const invitation = team.invitationForEmail(p.email, now);
  const verdict = ssoRole(config, p.claims, null, invitation?.role ?? null);
  if ("refused" in verdict) return { refused: "no_role", accountId: "" };
  if (invitation) team.useInvitation(invitation.id, now);
  const created = { id: randomToken(9), name: invitation?.name || p.name, role: verdict.role };
  team.addAccount(created.id, created.name, created.role, now, verdict.by);
  team.linkIdentity(p.issuer, p.subject, created.id, p.email, now);
  return {
    account: created,
    created: true,
    invitationId: invitation?.id ?? "",
    roleChanged: null,
    lastOwnerKept: false,
  };
}
