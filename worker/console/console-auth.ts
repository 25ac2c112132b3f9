import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { timingSafeEqual } from "hono/utils/buffer";
import type { SiteConfig } from "../../shared/agent-config.ts";
import { HEADERS } from "../../shared/protocol.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { loadSite } from "../config/config-store.ts";
import { requireSecret } from "../config/secrets.ts";
import { siteIndex } from "../site-index/site-index.ts";
import { CONSOLE_COOKIE, verifyConsoleCookie, type ConsoleClaims } from "./console-cookie.ts";

const SAFE_METHODS = new Set(["GET", "HEAD"]);

export function hasConsoleCookie<E extends AppEnv>(c: Context<E>): boolean {
  return getCookie(c, CONSOLE_COOKIE, "host") !== undefined;
}

/**
 * A write must come from the worker's own origin: browsers send Origin on every cross-origin
 * request and every POST/PATCH/DELETE, so a missing one is refused too.
 */
export function requireSameOrigin<E extends AppEnv>(c: Context<E>): void {
  if (c.req.header("origin") !== new URL(c.req.url).origin)
    throw new ApiError(403, "forbidden_origin", "Console writes must come from the console's own origin");
}

/** A short fingerprint of the site's admin key: a cookie stops working when the key is changed. */
export const keyFingerprint = (site: SiteConfig) => (site.adminKeySha256 ?? "").slice(0, 16);

/**
 * The console session of this request, checked in full: signature and expiry, not signed out
 * (its row in the site's index), the site's admin key unchanged, `?site=` (if given) its own
 * site, and on writes the Origin and the CSRF header (double submit against the `csrf` claim).
 * `csrfHeader: false` is for the console's preview frame opening a draft session: the widget there
 * has no CSRF token, and the SameSite=Strict cookie plus the same-origin check already keep other
 * sites out; that request changes nothing of the owner's.
 */
export async function consoleSession<E extends AppEnv>(
  c: Context<E>,
  opts: { csrfHeader?: boolean } = {},
): Promise<{ site: SiteConfig; claims: ConsoleClaims }> {
  const signedOut = () => new ApiError(401, "unauthorized", "Not signed in to the console (or the session ended)");
  const token = getCookie(c, CONSOLE_COOKIE, "host") ?? "";
  const claims = token ? await verifyConsoleCookie(token, requireSecret(c.env)) : null;
  if (!claims) throw signedOut();
  const asked = c.req.query("site");
  if (asked !== undefined && asked !== claims.site)
    throw new ApiError(403, "forbidden", "This console session opens its own site only");
  if (!SAFE_METHODS.has(c.req.method)) requireSameOrigin(c);
  if (!SAFE_METHODS.has(c.req.method) && opts.csrfHeader !== false) {
    const sent = c.req.header(HEADERS.csrf) ?? "";
    if (!sent || !(await timingSafeEqual(sent, claims.csrf)))
      throw new ApiError(403, "forbidden", `Console writes need the ${HEADERS.csrf} header of this session`);
  }
  // The site first: its index is in the site's jurisdiction, if it chose one.
  const site = await loadSite(c.env, claims.site);
  if (!site?.adminKeySha256 || claims.kh !== keyFingerprint(site)) throw signedOut();
  if (!(await siteIndex(c.env, site).consoleSessionAlive(claims.cid))) throw signedOut();
  return { site, claims };
}
