import { z } from "zod/mini";
import { ROLES, type Role } from "./roles.ts";

/**
 * Accounts, invitations, passkeys and admin keys: the bodies the console and scripts send and the
 * answers they get. A WebAuthn response travels as the browser library produced it (its own JSON);
 * the worker's WebAuthn library checks it field by field, so here it is only bounded in size.
 */

const Name = z.string().check(z.trim(), z.minLength(1), z.maxLength(60));
const SiteKey = z.string().check(z.minLength(1), z.maxLength(200));
/** An invitation's secret, as the link carries it (after `#`). */
const InvitationToken = z.string().check(z.regex(/^[A-Za-z0-9_-]{20,100}$/));
/** A WebAuthn credential as @simplewebauthn/browser returns it: its Registration- or AuthenticationResponseJSON. */
export const WebAuthnResponse = z.looseObject({
  id: z.string().check(z.minLength(1), z.maxLength(1500)),
  rawId: z.string().check(z.maxLength(1500)),
  type: z.literal("public-key"),
  response: z.looseObject({ clientDataJSON: z.string().check(z.maxLength(4000)) }),
});

export const RoleInput = z.enum(ROLES);

/** An e-mail address as an identity provider gives it (compared in lower case). */
const Email = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.maxLength(254), z.regex(/^[^\s@]+@[^\s@]+$/, "not an e-mail"));

/**
 * POST adminInvitations: whom for (the name is a suggestion the person may change) and the role. With
 * an e-mail, the person may also accept it by signing in with the site's single sign-on as that address.
 */
export const InvitationInput = z.object({ role: RoleInput, name: z.optional(Name), email: z.optional(Email) });
/** POST consoleInvitation*: the invitation's link parts, and the name the person chose. */
export const InvitationLookup = z.object({ siteKey: SiteKey, token: InvitationToken });
export const InvitationOptionsInput = z.object({ siteKey: SiteKey, token: InvitationToken, name: Name });
export const InvitationAccept = z.object({
  siteKey: SiteKey,
  token: InvitationToken,
  name: Name,
  credential: WebAuthnResponse,
});
/** POST consolePasskeyOptions and consolePasskey: sign in with a passkey of this site. */
export const PasskeyOptionsInput = z.object({ siteKey: SiteKey });
export const PasskeySignIn = z.object({ siteKey: SiteKey, credential: WebAuthnResponse });
/** POST adminMyPasskeys: a further passkey for the signed-in account. */
export const PasskeyAdd = z.object({ credential: WebAuthnResponse, label: z.optional(Name) });
/**
 * PATCH adminAccount: its role, and the e-mail by which the site's single sign-on may link the
 * person's provider identity to it ("" for none). Only owners set it: an account's own e-mail would
 * let anyone point another person's sign-in at their account.
 */
export const AccountChange = z
  .object({ role: z.optional(RoleInput), email: z.optional(z.union([z.literal(""), Email])) })
  .check(z.refine((v) => v.role !== undefined || v.email !== undefined, "give the role, the e-mail or both"));
/** POST adminKeys: a named key for a script, scoped to a role. */
export const KeyInput = z.object({ name: Name, role: RoleInput });

export interface AccountView {
  id: string;
  name: string;
  role: Role;
  createdAt: number;
  lastSignInAt: number | null;
  /** The address single sign-on links by: the invitation's, the provider's, or one an owner set ("" for none). */
  email: string;
  passkeys: number;
  /** Signs in with the site's single sign-on (an identity provider's user is linked to it). */
  sso: boolean;
  /** The provider identities it signs in by. */
  identities: IdentityView[];
}

/** An identity provider's user linked to an account (its subject stays in the worker). */
export interface IdentityView {
  id: string;
  issuer: string;
  /** The e-mail the provider gave at its last sign-in. */
  email: string;
  createdAt: number;
}

export interface InvitationView {
  id: string;
  role: Role;
  name: string;
  /** For single sign-on: the address whose first sign-in uses the invitation ("" for none). */
  email: string;
  createdAt: number;
  expiresAt: number;
  createdBy: string;
}

export interface KeyView {
  id: string;
  name: string;
  role: Role;
  createdAt: number;
  lastUsedAt: number | null;
  createdBy: string;
}

export interface PasskeyView {
  id: string;
  label: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** GET adminAccounts: the team. `bootstrapKey`: the site's admin key still opens it as owner. */
export interface TeamView {
  accounts: AccountView[];
  invitations: InvitationView[];
  keys: KeyView[];
  bootstrapKey: boolean;
}

/** POST adminInvitations: the secret is shown once; the console builds the link from it. */
export interface InvitationCreated extends InvitationView {
  token: string;
}

/** POST adminKeys: the key is shown once (only its digest is kept). */
export interface KeyCreated extends KeyView {
  key: string;
}

/** POST consoleInvitation: what the invitation page shows before the person registers a passkey. */
export interface InvitationInfo {
  site: string;
  role: Role;
  name: string;
  expiresAt: number;
}

/** Who a console session or an admin key is. */
export interface Who {
  kind: "account" | "key" | "bootstrap";
  id: string;
  name: string;
  role: Role;
}

/** GET adminMe: the caller, and its passkeys and provider identities when it is an account. */
export interface MeView {
  who: Who;
  passkeys: PasskeyView[];
  identities: IdentityView[];
}
