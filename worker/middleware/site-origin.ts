import type { Context } from "hono";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { loadSite } from "../config/config-store.ts";
import { originAllowed } from "../config/origins.ts";

/**
 * Loads the site and refuses a browser origin the site does not list. `requireOrigin` is set when
 * opening a session: that is where a site key is spent, so it must come from the site's pages.
 */
export async function checkSiteOrigin(
  c: Context<AppEnv>,
  siteKey: string,
  requireOrigin: boolean,
): Promise<SiteConfig> {
  const site = await loadSite(c.env, siteKey);
  if (!site) throw new ApiError(403, "unknown_site", `Unknown site key ${JSON.stringify(siteKey.slice(0, 40))}`);
  const origin = c.req.header("origin");
  if (!origin) {
    if (requireOrigin)
      throw new ApiError(403, "forbidden_origin", "Opening a session needs an Origin header from a page of the site");
    return site;
  }
  // The iframe embed page (/embed/...) is served by this worker, so its requests carry the
  // worker's own origin; which parents may frame it is the site's list (frame-ancestors).
  if (origin === new URL(c.req.url).origin) return site;
  if (!originAllowed(origin, site.allowedOrigins)) {
    throw new ApiError(403, "forbidden_origin", `Origin ${origin} is not allowed for this site key`);
  }
  return site;
}
