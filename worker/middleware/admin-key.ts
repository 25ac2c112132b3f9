import type { MiddlewareHandler } from "hono";
import type { SiteConfig } from "../../shared/agent-config.ts";
import { HEADERS } from "../../shared/protocol.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { loadSite } from "../config/config-store.ts";
import { admitAdmin } from "../limits/admission.ts";

const enc = new TextEncoder();

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", enc.encode(text)));
}

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));

/** Equal digests, compared without an early exit (both are 32 bytes). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
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
    const refuse = () => new ApiError(401, "unauthorized", `Admin routes need ?site=<site key> and a valid ${HEADERS.adminKey} header`);
    await admitAdmin(c);
    if (!key || !siteKey || key.length > 500) throw refuse();
    const [site, digest] = await Promise.all([loadSite(c.env, siteKey), sha256(key)]);
    if (!site?.adminKeySha256 || !sameBytes(digest, fromHex(site.adminKeySha256))) throw refuse();
    c.set("site", site);
    await next();
  };
}
