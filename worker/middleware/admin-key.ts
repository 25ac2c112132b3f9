import type { Context, MiddlewareHandler } from "hono";
import { timingSafeEqual } from "hono/utils/buffer";
import type { SiteConfig } from "../../shared/agent-config.ts";
import { HEADERS } from "../../shared/protocol.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { loadSite } from "../config/config-store.ts";
import { admitAdmin } from "../limits/admission.ts";
import { consoleSession, hasConsoleCookie } from "../console/console-auth.ts";
import { withContract } from "./contract.ts";

const enc = new TextEncoder();

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", enc.encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The site whose admin key this is, or null. KV holds only the key's SHA-256; a site without one
 * has no admin access. Callers count the attempt first (admitAdmin), right or wrong.
 */
export async function siteForAdminKey(env: AppEnv["Bindings"], siteKey: string, key: string) {
  if (!key || !siteKey || key.length > 500) return null;
  const [site, digest] = await Promise.all([loadSite(env, siteKey), sha256Hex(key)]);
  // hono's compare takes the same time wherever the digests differ.
  return site?.adminKeySha256 && (await timingSafeEqual(digest, site.adminKeySha256)) ? site : null;
}

async function siteByKeyHeader<E extends AppEnv>(c: Context<E>, key: string): Promise<SiteConfig> {
  await admitAdmin(c);
  const site = await siteForAdminKey(c.env, c.req.query("site") ?? "", key);
  if (!site)
    throw new ApiError(
      401,
      "unauthorized",
      `Admin routes need ?site=<site key> and a valid ${HEADERS.adminKey} header`,
    );
  return site;
}

/**
 * For /v1/admin/...: EITHER `?site=<site key>` and `x-parley-admin-key: <the site owner's key>`
 * (scripts, tests), OR the console's session cookie (plus its CSRF header and Origin on writes;
 * see console/console-auth.ts). Every key refusal is the same 401, so the answer says nothing
 * about which site keys exist; each client IP gets ADMIN_PER_MINUTE key checks a minute, right or
 * wrong (then 429 with Retry-After). A cookie is a signature, not a guess, so it spends none.
 */
type AdminEnv = AppEnv & { Variables: { site: SiteConfig } };

export function adminKey(): MiddlewareHandler<AdminEnv> {
  const adminKeyMiddleware: MiddlewareHandler<AdminEnv> = async function adminKeyMiddleware(c, next) {
    const key = c.req.header(HEADERS.adminKey);
    const site =
      key === undefined && hasConsoleCookie(c) ? (await consoleSession(c)).site : await siteByKeyHeader(c, key ?? "");
    c.set("site", site);
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
