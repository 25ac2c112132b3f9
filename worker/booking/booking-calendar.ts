import type { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import { CALENDAR_SECRET_PREFIX } from "../../shared/config/booking-config.ts";
import { BOOKING_TOOLS } from "../../shared/tools/booking.ts";
import { namedSecret } from "../config/named-secret.ts";
import { outboundPolicy, outboundRefusal } from "../net/resolved-address.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { calcomConnector } from "./calcom-connector.ts";
import type { CalendarConnector } from "./calendar-connector.ts";

/** The booking tools an agent is offered: all three when it enables booking and its site connects a calendar. */
export function bookingToolNames(agent: AgentConfig, site: SiteConfig | null | undefined): string[] {
  return agent.booking && site?.booking ? BOOKING_TOOLS.map((t) => t.name) : [];
}

/** The site's calendar: the demo's in demo mode (its own calendar, no key), else the configured connector. */
export async function siteCalendar(env: Env, site: SiteConfig): Promise<CalendarConnector> {
  const booking = site.booking;
  if (!booking) throw new ApiError(400, "misconfigured", "This site has no calendar connected (booking)");
  const demo = env.demo?.calendar(site.siteKey);
  if (demo) return demo;
  // Checked again here, address and DNS answer, whoever wrote the config: the key goes to this address only.
  const refused = await outboundRefusal(booking.baseUrl, outboundPolicy(env));
  if (refused)
    throw new ApiError(
      refused.code === "forbidden" ? 403 : 503,
      refused.code,
      `The calendar's address ${booking.baseUrl}: ${refused.message}`,
    );
  if (!booking.apiKeySecret.startsWith(CALENDAR_SECRET_PREFIX))
    throw new ApiError(503, "misconfigured", `A calendar key's secret name must start with ${CALENDAR_SECRET_PREFIX}`);
  const key = namedSecret(env, booking.apiKeySecret);
  if (!key) throw new ApiError(503, "misconfigured", `Worker secret ${booking.apiKeySecret} is not set`);
  return calcomConnector(booking, key);
}
