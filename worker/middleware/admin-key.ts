import type { Context, MiddlewareHandler } from "hono";
import { timingSafeEqual } from "hono/utils/buffer";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import { HEADERS } from "../../shared/wire/protocol.ts";
import type { AppEnv, Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { loadSite } from "../config/config-store.ts";
import { admitAdmin } from "../limits/admission.ts";
import { bootstrapActor, type Actor } from "../accounts/actor.ts";
import { parseNamedKey, sha256Hex } from "../accounts/secrets.ts";
import { ANONYMOUS, auditRequest } from "../audit/record-audit.ts";
import { consoleSession, hasConsoleCookie } from "../console/console-auth.ts";
import { withContract } from "./contract.ts";
import { siteAccounts } from "../objects.ts";

export type AdminVars = { site: SiteConfig; actor: Actor };
export type AdminEnv = AppEnv & { Variables: AdminVars };

/**
 * The site and who this admin key is, or null: a named key (`pk_<id>_<secret>`, its digest in the
 * site's SiteAccounts object, with its role), or the site's bootstrap key (the digest in the site's
 * config, `adminKeySha256`: owner, until an owner revokes it). Callers count the attempt first
 * (admitAdmin), right or wrong. `bootstrapOnly`: the console's sign-in takes no named key.
 */
export async function actorForKey(
  env: Env,
  siteKey: string,
  key: string,
  opts: { bootstrapOnly?: boolean } = {},
): Promise<{ site: SiteConfig; actor: Actor } | null> {
  if (!key || !siteKey || key.length > 500) return null;
  const [site, digest] = await Promise.all([loadSite(env, siteKey), sha256Hex(key)]);
  if (!site) return null;
  const named = opts.bootstrapOnly ? null : parseNamedKey(key);
  if (named) {
    const row = await siteAccounts(env, siteKey).useKey(named.id, await sha256Hex(named.secret));
    return row
      ? { site, actor: { kind: "key", id: row.id, name: row.name, role: row.role, authAt: Date.now() } }
      : null;
  }
  // hono's compare takes the same time wherever the digests differ.
  if (!site.adminKeySha256 || !(await timingSafeEqual(digest, site.adminKeySha256))) return null;
  if (await siteAccounts(env, siteKey).bootstrapRevoked(digest)) return null;
  return { site, actor: bootstrapActor(Date.now()) };
}

async function byKeyHeader<E extends AppEnv>(c: Context<E>, key: string) {
  await admitAdmin(c);
  const siteKey = c.req.query("site") ?? "";
  const found = await actorForKey(c.env, siteKey, key);
  if (!found) {
    // A wrong key for a site that exists is a failed sign-in of that site's trail.
    if (siteKey && (await loadSite(c.env, siteKey)))
      await auditRequest(c, siteKey, {
        actor: ANONYMOUS,
        action: "sign_in",
        object: "admin-key",
        outcome: "refused",
        code: "unauthorized",
      });
    throw new ApiError(
      401,
      "unauthorized",
      `Admin routes need ?site=<site key> and a valid ${HEADERS.adminKey} header`,
    );
  }
  return found;
}

/**
 * For /v1/admin/...: EITHER `?site=<site key>` and `x-parley-admin-key: <a key of the site>` (scripts,
 * tests), OR the console's session cookie (plus its CSRF header and Origin on writes; see
 * console/console-auth.ts). Sets the site and the actor; what the actor may do is the permission
 * table's (route-permission.ts). Every key refusal is the same 401, so the answer says nothing
 * about which site keys exist; each client IP gets ADMIN_PER_MINUTE key checks a minute, right or
 * wrong (then 429 with Retry-After). A cookie is a signature, not a guess, so it spends none.
 */
export function adminKey(): MiddlewareHandler<AdminEnv> {
  const adminKeyMiddleware: MiddlewareHandler<AdminEnv> = async function adminKeyMiddleware(c, next) {
    const key = c.req.header(HEADERS.adminKey);
    const { site, actor } =
      key === undefined && hasConsoleCookie(c) ? await consoleSession(c) : await byKeyHeader(c, key ?? "");
    c.set("site", site);
    c.set("actor", actor);
    await next();
  };
  return withContract(adminKeyMiddleware, { auth: "admin", errors: ADMIN_ERRORS });
}

const ADMIN_ERRORS = [
  [401, "unauthorized"],
  [403, "forbidden"],
  [403, "forbidden_origin"],
  [429, "rate_limited"],
] as const;
