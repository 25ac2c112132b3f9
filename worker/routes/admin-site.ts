import { Hono } from "hono";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import type { AdminAnswer } from "../../shared/wire/admin-answers.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { originPatternProblem, SiteSettings } from "../../shared/config/site-settings.ts";
import type { AppEnv } from "../env.ts";
import { ApiError, validationFailed } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { CONFIG_CACHE_MS, readSiteFresh } from "../config/config-store.ts";
import { writeSite } from "../config/site-writes.ts";

type AdminEnv = AppEnv & { Variables: { site: SiteConfig } };

/** The site's settings for its owner (behind the admin middleware, mounted by admin.ts). */
export const siteAdminRoutes = new Hono<AdminEnv>();

/** What the owner sees: every setting, and what is not a setting (key, tenant, agents) to read. */
function view(site: SiteConfig, demo: boolean) {
  const { adminKeySha256: _secretDigest, ...rest } = site;
  return { site: rest, demo, takesEffectWithinMs: CONFIG_CACHE_MS };
}

siteAdminRoutes.get(ROUTES.adminSite, async (c) => {
  const site = (await readSiteFresh(c.env, c.var.site.siteKey)) ?? c.var.site;
  return c.json(view(site, Boolean(c.env.demo)) satisfies AdminAnswer<"GET", typeof ROUTES.adminSite>);
});

siteAdminRoutes.put(ROUTES.adminSite, jsonBody(SiteSettings), async (c) => {
  const settings = c.req.valid("json");
  const loopback = Boolean(c.env.demo);
  const problems = settings.allowedOrigins.flatMap((origin, i) => {
    const problem = originPatternProblem(origin, loopback);
    return problem ? [{ path: ["allowedOrigins", String(i)], message: `${origin}: ${problem}` }] : [];
  });
  if (problems.length) throw validationFailed(problems);
  const stored = await readSiteFresh(c.env, c.var.site.siteKey);
  if (!stored) throw new ApiError(404, "unknown_site", "The site is no longer configured");
  // A PUT of the whole form: a setting left out goes back to its default (maxTokens: no cap; keep nothing:
  // off, the retention applies), but for redaction, which a client that does not know it never turns off.
  const { maxTokens: _previousCap, keepNothingMinutes: _previousMinutes, ...kept } = stored;
  const next: SiteConfig = { ...kept, ...settings };
  await writeSite(c.env, next);
  return c.json(view(next, loopback) satisfies AdminAnswer<"PUT", typeof ROUTES.adminSite>);
});
