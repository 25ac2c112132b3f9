import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import type { SiteConfig } from "../../shared/agent-config.ts";
import type { AppEnv } from "../env.ts";
import { requireSecret } from "../config/secrets.ts";
import { CONSOLE_COOKIE, verifyConsoleCookie } from "./console-cookie.ts";

const enc = new TextEncoder();

/**
 * Which staff member a console request is (takeover, issue #16): a digest of the console session's
 * id (a sign-in; each person signs in on their own browser), or of the site for a script using the
 * admin key. A digest, because the id travels in session events to the visitor's browser, and the
 * session's id is what sign-out revokes. Called after the admin middleware checked the request.
 */
export async function staffIdOf(c: Context<AppEnv & { Variables: { site: SiteConfig } }>): Promise<string> {
  const token = getCookie(c, CONSOLE_COOKIE, "host");
  const claims = token ? await verifyConsoleCookie(token, requireSecret(c.env)) : null;
  const basis = claims ? `console:${claims.cid}` : `admin-key:${c.var.site.siteKey}`;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", enc.encode(basis)));
  return Array.from(digest.slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
}
