import type { SsoConfig } from "../../shared/config/sso-config.ts";
import { ApiError } from "../errors.ts";
import { checkIdToken, keyFor, tokenHeader } from "./id-token.ts";
import { discover, signingKeys } from "./oidc-discovery.ts";
import { exchangeCode } from "./oidc-token.ts";
import type { SsoPerson } from "./sso-accounts.ts";
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
 * The person behind a provider's answer to one sign-in: the code traded for the id token (with the
 * PKCE verifier), the token checked (id-token.ts), then the e-mail: present, verified (as the site
 * asks) and at one of the site's domains. Each refusal is an ApiError with its own code.
 */
export async function personOf(sso: SsoConfig, a: ProviderAnswer): Promise<SsoPerson & { authTime?: number }> {
  const doc = await discover(sso.issuer, a.policy);
  const idToken = await exchangeCode(
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
  const { sub, claims, authTime } = await checkIdToken(idToken, key, {
    issuer: sso.issuer,
    clientId: sso.clientId,
    nonce: a.attempt.nonce,
    ...(doc.id_token_signing_alg_values_supported ? { algs: doc.id_token_signing_alg_values_supported } : {}),
    maxAge: a.attempt.maxAge,
    nowS: Math.floor(Date.now() / 1000),
  });
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
    name: given || email.slice(0, email.indexOf("@")).slice(0, 60),
    claims,
    ...(authTime !== undefined ? { authTime } : {}),
  };
}
