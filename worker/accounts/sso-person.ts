import type { SsoConfig } from "../../shared/config/sso-config.ts";
import { ApiError } from "../errors.ts";
import { checkIdToken, keyFor, tokenHeader } from "./id-token.ts";
import { discover, signingKeys } from "./oidc-discovery.ts";
import { exchangeCode } from "./oidc-token.ts";
import { userinfo } from "./oidc-userinfo.ts";
import type { SsoPerson } from "./sso-accounts.ts";
import { claimValues } from "./sso-role.ts";
import type { SsoAttempt } from "./sso-store.ts";
import type { OutboundPolicy } from "../net/resolved-address.ts";

export interface ProviderAnswer {
  code: string;
  attempt: SsoAttempt;
  redirectUri: string;
  clientSecret: string;
  /** How the provider may be reached: loopback in demo mode (the tests'), each name's DNS answer checked. */
  policy: OutboundPolicy;
}

/** Who tried, as far as the id token said before a refusal (for the audit trail), when it got that far. */
export class SsoRefusal extends ApiError {
  override name = "SsoRefusal";
  constructor(
    err: ApiError,
    readonly who: { subject: string; email: string },
  ) {
    super(err.status, err.code, err.message);
  }
}

/**
 * The id token's claims with what it lacks taken from userinfo: the e-mail (with its
 * `email_verified`, never one without the other) and the role claim (its top-level name: `groups`,
 * `realm_access`), and the name. What the id token says stands.
 */
export function withUserinfo(
  claims: Record<string, unknown>,
  info: Record<string, unknown>,
  roleClaim: string,
): Record<string, unknown> {
  const out = { ...claims };
  if (typeof claims.email !== "string") {
    delete out.email_verified;
    for (const k of ["email", "email_verified"]) if (k in info) out[k] = info[k];
  }
  const top = roleClaim.split(".")[0]!;
  if (roleClaim && !claimValues(claims, roleClaim).length && top in info) out[top] = info[top];
  if (typeof claims.name !== "string" && typeof info.name === "string") out.name = info.name;
  return out;
}

/**
 * The person behind a provider's answer to one sign-in: the code traded for the id token (with the
 * PKCE verifier), the token checked (id-token.ts), the userinfo endpoint read when the id token lacks
 * the e-mail or the role claim the site maps, then the e-mail: present, verified (as the site asks)
 * and at one of the site's domains. Each refusal is an ApiError with its own code.
 */
export async function personOf(sso: SsoConfig, a: ProviderAnswer): Promise<SsoPerson & { authTime?: number }> {
  const doc = await discover(sso.issuer, a.policy);
  const { idToken, accessToken } = await exchangeCode(
    doc,
    {
      code: a.code,
      redirectUri: a.redirectUri,
      verifier: a.attempt.verifier,
      clientId: sso.clientId,
      clientSecret: a.clientSecret,
    },
    a.policy,
  );
  const header = tokenHeader(idToken);
  const key =
    keyFor(await signingKeys(doc.jwks_uri, a.policy), header) ??
    keyFor(await signingKeys(doc.jwks_uri, a.policy, true), header);
  if (!key)
    throw new ApiError(401, "sso_token", "The id token is signed by a key the identity provider does not publish");
  const checked = await checkIdToken(idToken, key, {
    issuer: sso.issuer,
    clientId: sso.clientId,
    nonce: a.attempt.nonce,
    ...(doc.id_token_signing_alg_values_supported ? { algs: doc.id_token_signing_alg_values_supported } : {}),
    maxAge: a.attempt.maxAge,
    nowS: Math.floor(Date.now() / 1000),
  });
  const { sub, authTime } = checked;
  const lacksRole =
    sso.roleClaim !== "" && sso.roleMap.length > 0 && !claimValues(checked.claims, sso.roleClaim).length;
  // A provider without a userinfo endpoint says all it will in the id token.
  let claims = checked.claims;
  if ((typeof claims.email !== "string" || lacksRole) && doc.userinfo_endpoint) {
    const info = await userinfo(doc, accessToken, sub, a.policy).catch((err: ApiError) => {
      throw new SsoRefusal(err, { subject: sub, email: "" });
    });
    claims = withUserinfo(claims, info, sso.roleClaim);
  }
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  const refuse = (err: ApiError) => new SsoRefusal(err, { subject: sub, email });
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254)
    throw refuse(
      new ApiError(403, "sso_email", "The identity provider sent no e-mail address (ask for the email scope)"),
    );
  const said = claims.email_verified;
  const verified = said === true || said === "true";
  const denied = said === false || said === "false";
  if (sso.requireVerifiedEmail ? !verified : denied)
    throw refuse(new ApiError(403, "sso_email", `The identity provider does not say ${email} is verified`));
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (!sso.allowedDomains.includes(domain))
    throw refuse(new ApiError(403, "sso_domain", `${domain} is not one of the e-mail domains this site lets in`));
  const given = typeof claims.name === "string" ? claims.name.trim().slice(0, 60) : "";
  return {
    issuer: sso.issuer,
    subject: sub,
    email,
    emailVerified: verified,
    name: given || email.slice(0, email.indexOf("@")).slice(0, 60),
    claims,
    ...(authTime !== undefined ? { authTime } : {}),
  };
}
