import { Hono } from "hono";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import { CALENDAR_SECRET_PREFIX, SiteBooking, type BookingSettingsView } from "../../shared/config/booking-config.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { AppEnv, Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { readSiteFresh } from "../config/config-store.ts";
import { writeSite } from "../config/site-writes.ts";
import { outboundUrlProblem } from "../net/outbound-url.ts";
import { secretIsSet } from "../config/named-secret.ts";
import { validationFailed } from "../errors.ts";

type AdminEnv = AppEnv & { Variables: { site: SiteConfig } };

/** The site's calendar for booking in the chat, for its owner (behind the admin middleware). */
export const bookingAdminRoutes = new Hono<AdminEnv>();

const view = (env: Env, booking: SiteBooking | undefined): BookingSettingsView => ({
  booking: booking ?? null,
  keySet: booking ? secretIsSet(env, booking.apiKeySecret) : false,
  demo: Boolean(env.demo),
});

async function stored(env: Env, siteKey: string): Promise<SiteConfig> {
  const site = await readSiteFresh(env, siteKey);
  if (!site) throw new ApiError(404, "unknown_site", "The site is no longer configured");
  return site;
}

bookingAdminRoutes.get(ROUTES.adminBooking, async (c) => {
  const site = await stored(c.env, c.var.site.siteKey);
  return c.json(view(c.env, site.booking));
});

bookingAdminRoutes.put(ROUTES.adminBooking, jsonBody(SiteBooking), async (c) => {
  const booking = c.req.valid("json");
  const problems: Array<{ path: string[]; message: string }> = [];
  const prefix = CALENDAR_SECRET_PREFIX;
  if (!booking.apiKeySecret.startsWith(prefix))
    problems.push({
      path: ["apiKeySecret"],
      message: `a calendar key's secret name starts with ${prefix} (${prefix}API_KEY)`,
    });
  const url = outboundUrlProblem(booking.baseUrl, Boolean(c.env.demo));
  if (url) problems.push({ path: ["baseUrl"], message: url });
  if (problems.length) throw validationFailed(problems);
  const site = await stored(c.env, c.var.site.siteKey);
  await writeSite(c.env, { ...site, booking });
  return c.json(view(c.env, booking));
});

bookingAdminRoutes.delete(ROUTES.adminBooking, async (c) => {
  const { booking: _disconnected, ...site } = await stored(c.env, c.var.site.siteKey);
  await writeSite(c.env, site as SiteConfig);
  return c.json(view(c.env, undefined));
});
