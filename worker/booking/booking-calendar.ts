import type { AgentConfig, SiteConfig } from "../../shared/agent-config.ts";
import { BOOKING_TOOLS } from "../../shared/tools/booking.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { calcomConnector } from "./calcom-connector.ts";
import type { CalendarConnector } from "./calendar-connector.ts";

/** The booking tools an agent is offered: all three when it enables booking and its site connects a calendar. */
export function bookingToolNames(agent: AgentConfig, site: SiteConfig | null | undefined): string[] {
  return agent.booking && site?.booking ? BOOKING_TOOLS.map((t) => t.name) : [];
}

/** The site's calendar: the demo's in demo mode (its own calendar, no key), else the configured connector. */
export function siteCalendar(env: Env, site: SiteConfig): CalendarConnector {
  const booking = site.booking;
  if (!booking) throw new ApiError(400, "misconfigured", "This site has no calendar connected (booking)");
  const demo = env.demo?.calendar(site.siteKey);
  if (demo) return demo;
  const key = (env as unknown as Record<string, unknown>)[booking.apiKeySecret];
  if (typeof key !== "string" || !key)
    throw new ApiError(503, "misconfigured", `Worker secret ${booking.apiKeySecret} is not set`);
  return calcomConnector(booking, key);
}
