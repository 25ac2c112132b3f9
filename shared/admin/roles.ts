/**
 * A site's roles and what each may do. `owner`: everything (accounts, keys, settings, retention,
 * exports, deletion, the audit trail); `editor`: agents, prompts, knowledge, the strategy desk, drafts
 * and publishing; `staff`: the Live page, takeover, reading conversations; `viewer`: Insights only.
 * Which route needs which permission is the table in route-permissions.ts.
 */
export const ROLES = ["owner", "editor", "staff", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/** What a route may need. `self`: the caller's own account (its passkeys); `signed_in`: any console session. */
export const PERMISSIONS = [
  "insights",
  "conversations.read",
  "conversations.export",
  "conversations.delete",
  "live",
  "agents",
  "prompts",
  "desk",
  "knowledge",
  "site",
  "team",
  "audit",
  "self",
  "signed_in",
  "public",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const EVERYONE: Permission[] = ["insights", "self", "signed_in", "public"];

export const ROLE_GRANTS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  editor: [...EVERYONE, "agents", "prompts", "desk", "knowledge"],
  staff: [...EVERYONE, "conversations.read", "live"],
  viewer: EVERYONE,
};

export const can = (role: Role, need: Permission): boolean => ROLE_GRANTS[role].includes(need);

/** Steps that ask for a passkey sign-in (or the admin key typed) within this long. */
export const FRESH_AUTH_MS = 10 * 60_000;
