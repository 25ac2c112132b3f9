import { Hono, type Context } from "hono";
import { deleteCookie } from "hono/cookie";
import { ConsoleSignIn } from "../../shared/admin/console-session.ts";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { loadSite } from "../config/config-store.ts";
import { requireSecret } from "../config/secrets.ts";
import { admitAdmin } from "../limits/admission.ts";
import { actorForKey } from "../middleware/admin-key.ts";
import { jsonBody } from "../middleware/validate.ts";
import { pageCsp } from "../page-csp.ts";
import { bootstrapActor } from "../accounts/actor.ts";
import { actorRef, ANONYMOUS, auditRequest } from "../audit/record-audit.ts";
import { consoleSession, requireSameOrigin } from "../console/console-auth.ts";
import { CONSOLE_COOKIE } from "../console/console-cookie.ts";
import { openConsoleSession, sessionAnswer } from "../console/open-session.ts";
import { SIGN_IN_TOKEN, SignInLinkEntry, signInLinkKey, tokenDigest } from "../console/sign-in-link.ts";
import { consolePasskeyRoutes } from "./console-passkeys.ts";
import { siteAccounts, siteIndex } from "../objects.ts";
import { consoleSsoRoutes } from "./console-sso.ts";

/**
 * The owner's console: its page (one shell for /console and every address under it, so a deep
 * link or a reload works) and its session: sign in with the site key and its bootstrap admin key
 * (POST; accounts sign in with a passkey, console-passkeys.ts, or the site's single sign-on,
 * console-sso.ts), read the session (GET), sign out (DELETE). The admin routes accept the session's cookie.
 */
export const consoleRoutes = new Hono<AppEnv>();
consoleRoutes.route("/", consolePasskeyRoutes);
consoleRoutes.route("/", consoleSsoRoutes);

/**
 * The site a one-time sign-in link opens, once: its token's digest in KV (unexpired, of a site that
 * still has its admin key) and claimed for the first time by the site's own object.
 */
async function siteOfSignInLink(c: Context<AppEnv>, token: string): Promise<SiteConfig> {
  const refused = () => new ApiError(401, "unauthorized", "This sign-in link is unknown, used or expired");
  if (!SIGN_IN_TOKEN.test(token)) throw refused();
  const digest = await tokenDigest(token);
  const entry = SignInLinkEntry.safeParse(await c.env.CONFIG.get(signInLinkKey(digest), "json").catch(() => null));
  if (!entry.success || entry.data.expiresAt <= Date.now()) throw refused();
  const site = await loadSite(c.env, entry.data.site);
  if (!site?.adminKeySha256) throw refused();
  if (!(await siteIndex(c.env, site).claimSignInLink(digest, entry.data.expiresAt))) throw refused();
  c.executionCtx.waitUntil(c.env.CONFIG.delete(signInLinkKey(digest)).catch(() => undefined));
  return site;
}

consoleRoutes.post(ROUTES.consoleSession, jsonBody(ConsoleSignIn), async (c) => {
  // A sign-in from another origin would be login CSRF (the victim signed in as the attacker).
  requireSameOrigin(c);
  requireSecret(c.env);
  await admitAdmin(c);
  const body = c.req.valid("json");
  if ("signInLink" in body) {
    // A one-time link signs the owner in as the bootstrap key would, once.
    const site = await siteOfSignInLink(c, body.signInLink);
    const actor = bootstrapActor(Date.now());
    await auditRequest(c, site.siteKey, { actor: actorRef(actor), action: "sign_in", object: "sign-in-link" });
    return openConsoleSession(c, site, actor);
  }
  const { siteKey, adminKey } = body;
  const found = await actorForKey(c.env, siteKey, adminKey, { bootstrapOnly: true });
  if (!found) {
    if (await loadSite(c.env, siteKey))
      await auditRequest(c, siteKey, {
        actor: ANONYMOUS,
        action: "sign_in",
        object: "admin-key",
        outcome: "refused",
        code: "unauthorized",
      });
    throw new ApiError(401, "unauthorized", "Wrong site key or admin key");
  }
  await auditRequest(c, siteKey, { actor: actorRef(found.actor), action: "sign_in", object: "admin-key" });
  return openConsoleSession(c, found.site, found.actor);
});

consoleRoutes.get(ROUTES.consoleSession, async (c) => {
  const { claims, actor } = await consoleSession(c);
  return sessionAnswer(c, claims, actor);
});

consoleRoutes.delete(ROUTES.consoleSession, async (c) => {
  const { claims, actor } = await consoleSession(c);
  await siteAccounts(c.env, claims.site).closeSession(claims.cid);
  await auditRequest(c, claims.site, { actor: actorRef(actor), action: "sign_out" });
  deleteCookie(c, CONSOLE_COOKIE, { prefix: "host", path: "/", secure: true });
  return c.body(null, 204);
});

/** The console's HTML: the built app (dist/public/console/) under the strict page policy, framed by no one. */
function consoleShell(c: Context<AppEnv>) {
  // The Setup and Agents pages frame the embed page (same origin) as a live preview.
  c.header("content-security-policy", pageCsp([], ["'self'"]));
  c.header("cache-control", "no-store");
  c.header("referrer-policy", "no-referrer");
  c.header("x-content-type-options", "nosniff");
  const lang = (c.req.header("accept-language") ?? "").toLowerCase().startsWith("zh") ? "zh-CN" : "en";
  return c.html(
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">` +
      `<meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<title>Parley console</title><link rel="stylesheet" href="/console/console.css">` +
      `<script type="module" src="/console/console.js"></script></head>` +
      `<body><div id="console"></div></body></html>`,
  );
}

consoleRoutes.get(ROUTES.consoleHome, consoleShell);
consoleRoutes.get(ROUTES.consolePage, consoleShell);
