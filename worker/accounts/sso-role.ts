import type { Role } from "../../shared/admin/roles.ts";
import type { SsoConfig } from "../../shared/config/sso-config.ts";

const RANK: Record<Role, number> = { owner: 3, editor: 2, staff: 1, viewer: 0 };

/** The claim at a dotted path of the id token's claims, as strings: one value, several, or none. */
export function claimValues(claims: Record<string, unknown>, path: string): string[] {
  if (!path) return [];
  let at: unknown = claims;
  for (const part of path.split("."))
    at = at && typeof at === "object" && !Array.isArray(at) ? (at as Record<string, unknown>)[part] : undefined;
  const list = Array.isArray(at) ? at : [at];
  return list.filter((v): v is string | number => typeof v === "string" || typeof v === "number").map(String);
}

/** The highest role a rule gives one of these values, or null when no rule matches. */
export function mappedRole(roleMap: SsoConfig["roleMap"], values: readonly string[]): Role | null {
  let best: Role | null = null;
  for (const rule of roleMap)
    if (values.includes(rule.value) && (best === null || RANK[rule.role] > RANK[best])) best = rule.role;
  return best;
}

/** Who decided an account's role last: an owner (an invitation, Team) or the identity provider's claim. */
export type RoleBy = "owner" | "sso";

/** What the account's role becomes at this sign-in, and who decided it; or a refusal. */
export type RoleVerdict = { role: Role; by: RoleBy } | { refused: "no_role" };

/**
 * The role at an SSO sign-in, in this order: a rule that maps one of the claim's values (the provider
 * is the source of truth: a group change shows at the next sign-in); else a role an owner chose (the
 * invitation of a new account with that e-mail, or what an owner set on Team), which stands; else
 * the site's default role; else refused (`refuse`: nobody comes in unmapped, and someone taken out
 * of every mapped group cannot come back in).
 */
export function ssoRole(
  config: Pick<SsoConfig, "roleClaim" | "roleMap" | "defaultRole">,
  claims: Record<string, unknown>,
  current: { role: Role; by: RoleBy } | null,
  invitedAs: Role | null = null,
): RoleVerdict {
  const mapped = mappedRole(config.roleMap, claimValues(claims, config.roleClaim));
  if (mapped) return { role: mapped, by: "sso" };
  if (current?.by === "owner") return current;
  if (!current && invitedAs) return { role: invitedAs, by: "owner" };
  if (config.defaultRole !== "refuse") return { role: config.defaultRole, by: "sso" };
  return { refused: "no_role" };
}
