import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import {
  SSO_BASE_SCOPES,
  SSO_REDIRECT_PATH,
  SsoCallback,
  SsoStart,
  type SsoInfo,
  type SsoStarted,
} from "../../shared/config/sso-config.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { loadSite } from "../config/config-store.ts";
import { admitAdmin } from "../limits/admission.ts";
import { jsonBody } from "../middleware/validate.ts";
import type { Actor } from "../accounts/actor.ts";
import { discover } from "../accounts/oidc-discovery.ts";
import { randomToken, sha256Hex } from "../accounts/secrets.ts";
import { signInRefusal } from "../accounts/sso-sign-in-refusal.ts";
import { personOf, SsoRefusal } from "../accounts/sso-person.ts";
import { SSO_ATTEMPT_MS } from "../accounts/sso-store.ts";
import { auditRequest, type AuditInput } from "../audit/record-audit.ts";
import { requireSameOrigin } from "../console/console-auth.ts";
import { openConsoleSession } from "../console/open-session.ts";
import { siteAccounts } from "../objects.ts";
import { outboundPolicy } from "../net/resolved-address.ts";

/**
 * Single sign-on with the site's OpenID Connect provider: authorization code with PKCE (S256). The
 * start keeps the attempt (state, nonce, PKCE verifier) in the site's SiteAccounts object and binds it
 * to this browser with a short-lived `__Host-` cookie; the provider sends the browser back to the
 * console's callback page, which posts the code and state here (same origin, so the Strict cookies
 * come along). Every refusal is a 4xx with its own `sso_*` code and an entry in the audit trail.
 */
export const consoleSsoRoutes = new Hono<AppEnv>();

type Ctx = Context<AppEnv>;

/** The browser's binding to its sign-ins under way (the worker keeps only its digest). */
const BINDING_COOKIE = "parley-sso";
const BINDING = /^[A-Za-z0-9_-]{43}$/;
/** A sensitive step's sign-in: the provider must have checked the person within this long. */
const FRESH_MAX_AGE_S = 300;

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const siteOfState = (state: string) => {
  try {
    const part = state.slice(0, state.indexOf(".")).replace(/-/g, "+").replace(/_/g, "/");
    return new TextDecoder().decode(Uint8Array.from(atob(part), (ch) => ch.charCodeAt(0)));
  } catch {
    return "";
  }
};

const redirectUri = (c: Ctx) => `${new URL(c.req.url).origin}${SSO_REDIRECT_PATH}`;
const off = () => new ApiError(404, "sso_off", "This site has no single sign-on");

/** The client secret from the worker secret the site's config names. */
function clientSecret(c: Ctx, sso: NonNullable<SiteConfig["sso"]>): string {
  const value = (c.env as unknown as Record<string, unknown>)[sso.clientSecretEnv];
  if (typeof value === "string" && value) return value;
  throw new ApiError(
    503,
    "misconfigured",
    `The single sign-on's client secret is not set: \`wrangler secret put ${sso.clientSecretEnv}\``,
  );
}

async function record(c: Ctx, site: SiteConfig, err: ApiError, actor: AuditInput["actor"]) {
  await auditRequest(c, site.siteKey, {
    actor,
    action: "sign_in",
    object: "sso",
    outcome: err.status >= 500 ? "failed" : "refused",
    code: err.code,
  });
  return err;
}
const nobody = { kind: "anonymous", id: "", name: "" } as const;

consoleSsoRoutes.get(ROUTES.consoleSso, async (c) => {
  const site = await loadSite(c.env, c.req.query("site") ?? "");
  c.header("cache-control", "no-store");
  if (!site?.sso) throw off();
  return c.json({ name: site.sso.name } satisfies SsoInfo);
});

consoleSsoRoutes.post(ROUTES.consoleSsoStart, jsonBody(SsoStart), async (c) => {
  requireSameOrigin(c);
  await admitAdmin(c);
  const { siteKey, fresh } = c.req.valid("json");
  const site = await loadSite(c.env, siteKey);
  if (!site?.sso) throw off();
  const sso = site.sso;
  let doc;
  try {
    clientSecret(c, sso);
    doc = await discover(sso.issuer, outboundPolicy(c.env));
  } catch (err) {
    throw await record(c, site, err as ApiError, nobody);
  }
  const kept = getCookie(c, BINDING_COOKIE, "host");
  // A second tab reuses the browser's binding, so either tab's sign-in can finish.
  const binding = kept && BINDING.test(kept) ? kept : randomToken(32);
  const state = `${b64url(new TextEncoder().encode(siteKey))}.${randomToken(32)}`;
  const nonce = randomToken(32);
  const verifier = randomToken(32);
  const challenge = b64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
  const maxAge = fresh ? FRESH_MAX_AGE_S : 0;
  await siteAccounts(c.env, siteKey).ssoBegin({
    state,
    bindingSha256: await sha256Hex(binding),
    nonce,
    verifier,
    maxAge,
    expires: Date.now() + SSO_ATTEMPT_MS,
  });
  setCookie(c, BINDING_COOKIE, binding, {
    prefix: "host",
    path: "/",
    secure: true,
    httpOnly: true,
    sameSite: "Strict",
    maxAge: SSO_ATTEMPT_MS / 1000,
  });
  const url = new URL(doc.authorization_endpoint);
  const scope = [...SSO_BASE_SCOPES, ...sso.scopes.split(" ").filter(Boolean)];
  const params: Record<string, string> = {
    response_type: "code",
    client_id: sso.clientId,
    redirect_uri: redirectUri(c),
    scope: [...new Set(scope)].join(" "),
    state,
    nonce,
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...(maxAge ? { max_age: String(maxAge) } : {}),
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  c.header("cache-control", "no-store");
  return c.json({ url: url.toString() } satisfies SsoStarted);
});

consoleSsoRoutes.post(ROUTES.consoleSsoCallback, jsonBody(SsoCallback), async (c) => {
  requireSameOrigin(c);
  await admitAdmin(c);
  const body = c.req.valid("json");
  const unknownState = new ApiError(
    401,
    "sso_state",
    "This sign-in is unknown, was finished already or took longer than 10 minutes: start again",
  );
  const site = await loadSite(c.env, siteOfState(body.state));
  if (!site) throw unknownState;
  const accounts = siteAccounts(c.env, site.siteKey);
  const attempt = await accounts.ssoTake(body.state);
  if (!attempt) throw await record(c, site, unknownState, nobody);
  const binding = getCookie(c, BINDING_COOKIE, "host") ?? "";
  if (!BINDING.test(binding) || (await sha256Hex(binding)) !== attempt.bindingSha256)
    throw await record(
      c,
      site,
      new ApiError(401, "sso_state", "This sign-in was started in another browser: start it again here"),
      nobody,
    );
  if (!site.sso) throw await record(c, site, off(), nobody);
  if (body.error || !body.code)
    throw await record(
      c,
      site,
      new ApiError(
        401,
        "sso_denied",
        `The identity provider did not sign you in: ${body.error ?? "no code"}` +
          (body.errorDescription ? ` (${body.errorDescription})` : ""),
      ),
      nobody,
    );
  let person;
  try {
    person = await personOf(site.sso, {
      code: body.code,
      attempt,
      redirectUri: redirectUri(c),
      clientSecret: clientSecret(c, site.sso),
      policy: outboundPolicy(c.env),
    });
  } catch (err) {
    const who =
      err instanceof SsoRefusal ? { kind: "anonymous" as const, id: err.who.subject, name: err.who.email } : nobody;
    throw await record(c, site, err as ApiError, who);
  }
  const { authTime, ...who } = person;
  const done = await accounts.ssoSignIn(site.sso, who);
  if ("refused" in done)
    throw await record(
      c,
      site,
      signInRefusal(done.refused, person.email),
      done.accountId
        ? { kind: "account", id: done.accountId, name: person.email }
        : { kind: "anonymous", id: person.subject, name: person.email },
    );
  const now = Date.now();
  // Fresh as of the provider's own check of the person, when it says (a sign-in it remembered may be old).
  const actor: Actor = { kind: "account", ...done.account, authAt: authTime ? Math.min(now, authTime * 1000) : now };
  const as = { kind: "account" as const, id: actor.id, name: actor.name };
  if (done.invitationId)
    await auditRequest(c, site.siteKey, { actor: as, action: "invitation.accept", object: done.invitationId });
  if (done.created) await auditRequest(c, site.siteKey, { actor: as, action: "account.create", object: actor.id });
  if (done.linked) await auditRequest(c, site.siteKey, { actor: as, action: "identity.link", object: actor.id });
  if (done.roleChanged) await auditRequest(c, site.siteKey, { actor: as, action: "account.role", object: actor.id });
  if (done.lastOwnerKept)
    await auditRequest(c, site.siteKey, {
      actor: as,
      action: "account.role",
      object: actor.id,
      outcome: "refused",
      code: "last_owner",
    });
  await auditRequest(c, site.siteKey, { actor: as, action: "sign_in", object: "sso" });
  deleteCookie(c, BINDING_COOKIE, { prefix: "host", path: "/", secure: true });
  return openConsoleSession(c, site, actor);
});
