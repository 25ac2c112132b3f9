import type { MiddlewareHandler } from "hono";
import { timingSafeEqual } from "hono/utils/buffer";
import type { SiteConfig } from "../../shared/agent-config.ts";
import { HEADERS } from "../../shared/protocol.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { loadSite } from "../config/config-store.ts";
import { admitAdmin } from "../limits/admission.ts";

const enc = new TextEncoder();

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", enc.encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * For /v1/admin/...: `?site=<site key>` and `x-parley-admin-key: <the site owner's key>`. KV holds
 * only the key's SHA-256; a site without one has no admin access. Every refusal is the same 401,
 * so the answer says nothing about which site keys exist; each client IP gets ADMIN_PER_MINUTE
 * requests a minute, right or wrong (then 429 with Retry-After).
 */
export function adminKey(): MiddlewareHandler<AppEnv & { Variables: { site: SiteConfig } }> {
  return async function adminKeyMiddleware(c, next) {
    const key = c.req.header(HEADERS.adminKey) ?? "";
    const siteKey = c.req.query("site") ?? "";
    const refuse = () =>
      new ApiError(401, "unauthorized", `Admin routes need ?site=<site key> and a valid ${HEADERS.adminKey} header`);
    await admitAdmin(c);
    if (!key || !siteKey || key.length > 500) throw refuse();
    const [site, digest] = await Promise.all([loadSite(c.env, siteKey), sha256Hex(key)]);
    // hono's compare takes the same time wherever the digests differ.
    if (!site?.adminKeySha256 || !(await timingSafeEqual(digest, site.adminKeySha256))) throw refuse();
    c.set("site", site);
    await next();
  };
}
