import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { timingSafeEqual } from "hono/utils/buffer";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import { HEADERS } from "../../shared/wire/protocol.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { loadSite } from "../config/config-store.ts";
import { requireSecret } from "../config/secrets.ts";
import { bootstrapActor, type Actor } from "../accounts/actor.ts";
import { auditRequest } from "../audit/record-audit.ts";
import { CONSOLE_COOKIE, verifyConsoleCookie, type ConsoleClaims } from "./console-cookie.ts";
import { siteAccounts } from "../objects.ts";

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

/** A short fingerprint of the site's admin key: a cookie signed in with it stops working when the key is changed. */
export const keyFingerprint = (site: SiteConfig) => (site.adminKeySha256 ?? "").slice(0, 16);

/** Who a validly signed cookie says it is, for the audit entry of its refusal. */
function subject(claims: ConsoleClaims) {
  if (claims.sub?.startsWith("account:")) return { kind: "account" as const, id: claims.sub.slice(8), name: "" };
  return { kind: "bootstrap" as const, id: "bootstrap", name: "" };
}

/**
 * The console session of this request, checked in full: signature and expiry, its row in the
 * site's SiteAccounts object (not signed out, not idle past the site's `consoleIdleMinutes`, its
 * account still there: removing an account or changing its role deletes its rows), `?site=` (if
 * given) its own site, and on writes the Origin and the CSRF header (double submit against the
 * `csrf` claim). A session signed in with the admin key also ends when the key changes.
 * `csrfHeader: false` is for the console's preview frame opening a draft session: the widget there
 * has no CSRF token, and the SameSite=Strict cookie plus the same-origin check already keep other
 * sites out; that request changes nothing of the owner's.
 */
export async function consoleSession<E extends AppEnv>(
  c: Context<E>,
  opts: { csrfHeader?: boolean } = {},
): Promise<{ site: SiteConfig; claims: ConsoleClaims; actor: Actor }> {
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
  const site = await loadSite(c.env, claims.site);
  if (!site) throw signedOut();
  const row = await siteAccounts(c.env, site.siteKey).session(claims.cid, site.consoleIdleMinutes * 60_000);
  const keyChanged = row?.actorKind === "bootstrap" && (!site.adminKeySha256 || claims.kh !== keyFingerprint(site));
  if (!row || keyChanged) {
    // A cookie with a valid signature whose session ended: a removed account's, an idle one's. Recorded.
    await auditRequest(c, site.siteKey, {
      actor: subject(claims),
      action: "session.refused",
      object: claims.cid.slice(0, 8),
      outcome: "refused",
      code: "unauthorized",
    });
    throw signedOut();
  }
  const actor: Actor =
    row.actorKind === "bootstrap"
      ? bootstrapActor(row.authAt, row.id)
      : { kind: "account", id: row.actorId, name: row.name, role: row.role, authAt: row.authAt, sessionId: row.id };
  return { site, claims, actor };
}
