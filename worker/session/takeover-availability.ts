import type { SiteConfig } from "../../shared/config/agent-config.ts";
import type { UnavailableReason } from "../../shared/wire/protocol.ts";
import { DEFAULT_UNAVAILABLE, withinHours } from "../../shared/config/takeover-config.ts";
import type { Env } from "../env.ts";
import { siteIndex } from "../objects.ts";
import type { LocalizedText } from "../../shared/config/localized-text.ts";

/**
 * Whether a person can come now (takeover): within the site's opening hours, and a staff
 * member has the console's Live page open. Undefined when one can; else why not, and the site's text
 * for the visitor (the session's object picks their language; the widget shows it with the contact form).
 */
export async function nobodyAvailable(
  env: Env,
  site: SiteConfig,
  now = Date.now(),
): Promise<{ reason: UnavailableReason; text: LocalizedText } | undefined> {
  const text = site.takeover.unavailableMessage ?? DEFAULT_UNAVAILABLE;
  if (!withinHours(site.takeover.hours, now)) return { reason: "outside_hours", text };
  const present = await siteIndex(env, site).staffPresent();
  return present > 0 ? undefined : { reason: "no_staff", text };
}
