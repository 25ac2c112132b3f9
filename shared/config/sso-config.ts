import { z } from "zod/mini";
import { ROLES } from "../admin/roles.ts";

/**
 * Single sign-on (OpenID Connect, authorization code with PKCE) for a site's console: which identity
 * provider, which of its people may come in (e-mail domains) and with which role (a claim's values
 * mapped to roles). The client secret is never here: KV is not a secret store, so the config names
 * the worker secret that holds it (`wrangler secret put OIDC_CLINIC_SECRET`), as provider keys do.
 */

/** Where the identity provider sends the browser back: a console page, the same for every site. */
export const SSO_REDIRECT_PATH = "/console/sso/callback";

/** The scopes every sign-in asks for; a config adds its own (`groups` at Okta, say). */
export const SSO_BASE_SCOPES = ["openid", "email", "profile"] as const;

const Domain = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/, "not a domain name"),
  );

/** `groups`, `roles`, or a nested one as Keycloak puts realm roles: `realm_access.roles`. */
const ClaimPath = z.string().check(z.regex(/^[A-Za-z0-9_:-]{1,64}(\.[A-Za-z0-9_:-]{1,64}){0,2}$/, "not a claim name"));

export const SSO_NO_ROLE = ["refuse", ...ROLES] as const;

export const SsoRoleRule = z.object({
  /** One value of the claim (a group's name or id, a role, an e-mail address). */
  value: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  role: z.enum(ROLES),
});
export type SsoRoleRule = z.infer<typeof SsoRoleRule>;

export const SsoConfig = z.object({
  /** What the console's button says: "Sign in with <name>". */
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(40)),
  /** The issuer exactly as its discovery document (`<issuer>/.well-known/openid-configuration`) writes it. */
  issuer: z.string().check(z.maxLength(300), z.regex(/^https?:\/\/[^\s?#]+$/, "must be an http(s) URL without query")),
  clientId: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  /** The worker secret holding the client secret: `OIDC_` … `SECRET`, so a config cannot name another secret. */
  clientSecretEnv: z
    .string()
    .check(z.regex(/^OIDC_[A-Z0-9_]*SECRET$/, "must look like OIDC_…SECRET (a worker secret's name, not the secret)")),
  /** Scopes asked for besides openid, email and profile (space-separated names). */
  scopes: z._default(z.string().check(z.regex(/^[\w:./-]*( [\w:./-]+)*$/, "space-separated scope names")), ""),
  /** Only people whose verified e-mail is at one of these domains come in (exactly: list subdomains too). */
  allowedDomains: z.array(Domain).check(z.minLength(1), z.maxLength(20)),
  /**
   * Refuse an e-mail the provider does not say is verified (`email_verified: true`). Off: refused only
   * when the provider says it is not, for a provider that never sends the claim (a single-tenant Entra ID).
   */
  requireVerifiedEmail: z._default(z.boolean(), true),
  /** The id token's claim whose values give the role; "" maps nothing (the default role applies). */
  roleClaim: z._default(z.union([z.literal(""), ClaimPath]), "groups"),
  /** Claim values and their roles; several matching: the highest role wins. */
  roleMap: z._default(z.array(SsoRoleRule).check(z.maxLength(50)), []),
  /** The role of someone no rule maps, or `refuse`. */
  defaultRole: z._default(z.enum(SSO_NO_ROLE), "refuse"),
});
export type SsoConfig = z.infer<typeof SsoConfig>;
export type SsoConfigInput = z.input<typeof SsoConfig>;

/** GET adminSso: the config (or none), the address to register at the provider, whether the secret is set. */
export interface SsoView {
  sso: SsoConfig | null;
  redirectUri: string;
  secretSet: boolean;
}

/** GET consoleSso: what the sign-in page shows for a site with single sign-on. */
export interface SsoInfo {
  name: string;
}

const SiteKey = z.string().check(z.minLength(1), z.maxLength(200));
/**
 * POST consoleSsoStart. `fresh`: a sensitive step asked for a new sign-in, so the provider must have
 * checked the person lately (`max_age`).
 */
export const SsoStart = z.object({ siteKey: SiteKey, fresh: z.optional(z.boolean()) });
/** POST consoleSsoStart's answer: where the browser goes next. */
export interface SsoStarted {
  url: string;
}

/** What the provider sent back to the console's callback page, as the page forwards it. */
export const SsoCallback = z.object({
  state: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,300}\.[A-Za-z0-9_-]{43}$/, "not a state this worker made")),
  code: z.optional(z.string().check(z.minLength(1), z.maxLength(2000))),
  error: z.optional(z.string().check(z.maxLength(100))),
  errorDescription: z.optional(z.string().check(z.maxLength(500))),
});
export type SsoCallback = z.infer<typeof SsoCallback>;
