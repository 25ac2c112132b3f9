import { z } from "zod/mini";
import * as ROUTES from "../../shared/wire/routes.ts";
import { json, op, type RouteDocs } from "./route-doc.ts";

/**
 * Single sign-on (docs/accounts.md): the owner's settings, and the console's OpenID Connect sign-in
 * (authorization code with PKCE). Each route's permission is in shared/wire/route-permissions.ts.
 */
const fields = (description: string, names: string[]) =>
  json(description, z.looseObject(Object.fromEntries(names.map((f) => [f, z.unknown()]))));
const sessionAnswer = fields("The console session (the cookie is set)", ["site", "csrf", "expiresAt", "who"]);
const view = fields("The settings, the redirect URI to register, whether the secret is set", [
  "sso",
  "redirectUri",
  "secretSet",
]);
const admin = [
  [400, "validation_failed"],
  [403, "role_forbidden"],
  [404, "unknown_site"],
] as const;
const start = [
  [403, "forbidden_origin"],
  [404, "sso_off"],
  [429, "rate_limited"],
  [502, "sso_unreachable"],
  [503, "misconfigured"],
] as const;

export const SSO_ROUTES: RouteDocs = {
  [op("get", ROUTES.adminSso)]: { tag: "admin", summary: "The site's single sign-on", answers: { 200: view } },
  [op("put", ROUTES.adminSso)]: {
    tag: "admin",
    summary: "Set the site's single sign-on (the issuer's discovery document is fetched and checked)",
    answers: { 200: view },
    errors: admin,
  },
  [op("delete", ROUTES.adminSso)]: {
    tag: "admin",
    summary: "Turn single sign-on off; the sessions of accounts linked to the provider end",
    answers: { 204: { description: "Done", media: "none" } },
    errors: admin,
  },
  [op("get", ROUTES.consoleSso)]: {
    tag: "console",
    summary: "Whether a site signs in with single sign-on, and the provider's name for the button",
    query: z.object({ site: z.string() }),
    answers: { 200: fields("The provider's name", ["name"]) },
    errors: [[404, "sso_off"]],
  },
  [op("post", ROUTES.consoleSsoStart)]: {
    tag: "console",
    summary: "Start a sign-in: the provider's address to open (state, nonce, PKCE) and the browser's binding cookie",
    answers: { 200: fields("Where the browser goes", ["url"]) },
    errors: start,
  },
  [op("post", ROUTES.consoleSsoCallback)]: {
    tag: "console",
    summary: "Finish a sign-in with the code and state the provider sent back: checks the id token, signs in",
    answers: { 200: sessionAnswer },
    errors: [
      ...start,
      [401, "sso_state"],
      [401, "sso_denied"],
      [401, "sso_code"],
      [401, "sso_token"],
      [401, "sso_issuer"],
      [401, "sso_nonce"],
      [403, "sso_email"],
      [403, "sso_domain"],
      [403, "sso_role"],
      [403, "sso_unverified"],
      [403, "sso_removed"],
      [409, "sso_link"],
      [401, "sso_userinfo"],
      [502, "sso_userinfo"],
    ],
  },
};
