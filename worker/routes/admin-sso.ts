import { Hono, type Context } from "hono";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { SSO_REDIRECT_PATH, SsoConfig, type SsoView } from "../../shared/config/sso-config.ts";
import { ApiError } from "../errors.ts";
import type { AdminEnv } from "../middleware/admin-key.ts";
import { jsonBody } from "../middleware/validate.ts";
import { readSiteFresh } from "../config/config-store.ts";
import { writeSite } from "../config/site-writes.ts";
import { discover, providerUrlProblem, type Discovery } from "../accounts/oidc-discovery.ts";
import { validationFailed } from "../errors.ts";
import { siteAccounts } from "../objects.ts";
import { outboundPolicy, type OutboundPolicy } from "../net/resolved-address.ts";

/**
 * The site's single sign-on, for owners (the permission table asks a fresh sign-in to change it): read
 * it with the redirect URI to register at the provider, set it, turn it off. Setting it fetches the
 * issuer's discovery document, so a typo or a provider the worker cannot reach is refused at once,
 * beside the field it concerns. Mounted behind the admin middleware.
 */
export const ssoAdminRoutes = new Hono<AdminEnv>();

type Ctx = Context<AdminEnv>;

const secretSet = (c: Ctx, name: string) => {
  const value = (c.env as unknown as Record<string, unknown>)[name];
  return typeof value === "string" && value.length > 0;
};

function view(c: Ctx, site: SiteConfig): SsoView {
  return {
    sso: site.sso ?? null,
    redirectUri: `${new URL(c.req.url).origin}${SSO_REDIRECT_PATH}`,
    secretSet: site.sso ? secretSet(c, site.sso.clientSecretEnv) : false,
  };
}

async function stored(c: Ctx): Promise<SiteConfig> {
  const site = await readSiteFresh(c.env, c.var.site.siteKey);
  if (!site) throw new ApiError(404, "unknown_site", "The site is no longer configured");
  return site;
}

/**
 * The provider's document for the issuer as typed, or as its document writes it when that differs by
 * a slash at the end only (Auth0's issuers end with one, most do not); a refusal names the field.
 */
async function discoverTyped(issuer: string, policy: OutboundPolicy): Promise<Discovery> {
  try {
    return await discover(issuer, policy, { fresh: true });
  } catch (err) {
    const other = issuer.endsWith("/") ? issuer.replace(/\/+$/, "") : `${issuer}/`;
    const retry = await discover(other, policy, { fresh: true }).catch(() => null);
    if (retry) return retry;
    throw validationFailed([{ path: ["issuer"], message: (err as Error).message }]);
  }
}

ssoAdminRoutes.get(ROUTES.adminSso, async (c) => {
  c.header("cache-control", "no-store");
  return c.json(view(c, await stored(c)));
});

ssoAdminRoutes.put(ROUTES.adminSso, jsonBody(SsoConfig), async (c) => {
  const sso = c.req.valid("json");
  const policy = outboundPolicy(c.env);
  const problem = providerUrlProblem(sso.issuer, policy.loopback);
  if (problem) throw validationFailed([{ path: ["issuer"], message: `${sso.issuer}: ${problem}` }]);
  if (!secretSet(c, sso.clientSecretEnv))
    throw validationFailed([
      {
        path: ["clientSecretEnv"],
        message: `the worker secret ${sso.clientSecretEnv} is not set: \`wrangler secret put ${sso.clientSecretEnv}\``,
      },
    ]);
  const doc = await discoverTyped(sso.issuer, policy);
  const pkce = doc.code_challenge_methods_supported;
  if (pkce && !pkce.includes("S256"))
    throw validationFailed([{ path: ["issuer"], message: "the provider does not offer PKCE with S256" }]);
  const next: SiteConfig = { ...(await stored(c)), sso: { ...sso, issuer: doc.issuer } };
  await writeSite(c.env, next);
  return c.json(view(c, next));
});

/** Off: nobody signs in with it any more, and the sessions of accounts linked to the provider end now. */
ssoAdminRoutes.delete(ROUTES.adminSso, async (c) => {
  const { sso: _off, ...rest } = await stored(c);
  await writeSite(c.env, rest);
  await siteAccounts(c.env, rest.siteKey).ssoOff();
  return c.body(null, 204);
});
