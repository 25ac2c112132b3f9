import type { Context } from "hono";
import { setCookie } from "hono/cookie";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import type { ConsoleSession } from "../../shared/admin/console-session.ts";
import type { AppEnv } from "../env.ts";
import { requireSecret } from "../config/secrets.ts";
import { whoOf, type Actor } from "../accounts/actor.ts";
import { keyFingerprint } from "./console-auth.ts";
import {
  CONSOLE_COOKIE,
  CONSOLE_SESSION_SECONDS,
  randomId,
  signConsoleCookie,
  type ConsoleClaims,
} from "./console-cookie.ts";
import { siteAccounts } from "../objects.ts";

/** What the console reads of its session (sign-in and GET answer this; never a key, never the cookie). */
export function sessionAnswer(c: Context<AppEnv>, claims: ConsoleClaims, actor: Actor) {
  c.header("cache-control", "no-store");
  return c.json({
    site: claims.site,
    csrf: claims.csrf,
    expiresAt: claims.exp * 1000,
    who: whoOf(actor),
  } satisfies ConsoleSession);
}

/**
 * Opens a console session for an account (after its passkey) or the bootstrap key (after the key):
 * its row in the site's SiteAccounts object, bound to who signed in, and the `__Host-` cookie.
 */
export async function openConsoleSession(c: Context<AppEnv>, site: SiteConfig, actor: Actor) {
  const secret = requireSecret(c.env);
  const exp = Math.floor(Date.now() / 1000) + CONSOLE_SESSION_SECONDS;
  const bootstrap = actor.kind === "bootstrap";
  const claims: ConsoleClaims = {
    site: site.siteKey,
    csrf: randomId(),
    cid: randomId(),
    kh: bootstrap ? keyFingerprint(site) : "",
    sub: bootstrap ? "bootstrap" : `account:${actor.id}`,
    exp,
  };
  await siteAccounts(c.env, site.siteKey).openSession({
    id: claims.cid,
    actorKind: bootstrap ? "bootstrap" : "account",
    actorId: actor.id,
    expires: exp * 1000,
    authAt: actor.authAt,
  });
  setCookie(c, CONSOLE_COOKIE, await signConsoleCookie(claims, secret), {
    prefix: "host",
    path: "/",
    secure: true,
    httpOnly: true,
    sameSite: "Strict",
    maxAge: CONSOLE_SESSION_SECONDS,
  });
  return sessionAnswer(c, claims, { ...actor, sessionId: claims.cid });
}
