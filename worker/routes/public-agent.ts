import type { AgentConfig, PublicAgent, SiteConfig } from "../../shared/config/agent-config.ts";
import { DEFAULT_DISCLAIMER } from "../../shared/config/guard-config.ts";
import { TOOL_NAMES } from "../../shared/tools/tool-names.ts";
import type { Env } from "../env.ts";
import { usesDemoModel } from "../llm/upstream.ts";
import { photoAccess } from "../photos/photo-access.ts";
import { bookingToolNames } from "../booking/booking-calendar.ts";
import { hasLeadCard } from "../../shared/stages/stage-lead.ts";
import { chatConsent } from "../config/consent-notice.ts";

/**
 * What the browser may know of an agent: everything but its prompts (system, strategies, guidance,
 * eval cases, stage instructions, rule templates).
 */
export function publicAgent(agent: AgentConfig, env: Env, site?: SiteConfig): PublicAgent {
  const {
    systemPrompt: _hidden,
    strategies: _s,
    guidance: _g,
    evalCases: _e,
    photos: _p,
    consent: _c,
    ...rest
  } = agent;
  const stages = agent.stages.map((s) => ({
    ...s,
    instruction: "",
    rules: s.rules.map(({ template: _t, ...r }) => r),
  }));
  // The advice guard's disclaimer, shown on every advice card: the site's own text, or the default.
  const disclaimer = agent.guards.advice ? { disclaimer: site?.safety.disclaimer ?? DEFAULT_DISCLAIMER } : {};
  // Photo settings only when uploads would be taken: the widget shows no attach button otherwise.
  const access = site && photoAccess(env, site, agent);
  const photos = access && access.ok ? { photos: access.config } : {};
  // A site with takeover offers every agent ask_for_person (an edge tool the widget passes on).
  // an agent that books visits, on a site with a calendar, the booking tools (edge tools too), and an
  // agent with a lead card offer_lead_card.
  const tools = [
    ...rest.tools,
    ...(site?.takeover.enabled ? [TOOL_NAMES.askForPerson] : []),
    ...bookingToolNames(agent, site).filter((t) => !rest.tools.includes(t)),
    ...(hasLeadCard(agent) && !rest.tools.includes(TOOL_NAMES.offerLeadCard) ? [TOOL_NAMES.offerLeadCard] : []),
  ];
  const keep = site?.keepNothingMinutes ? { keepNothingMinutes: site.keepNothingMinutes } : {};
  // The consent the panel asks before the first message (the agent's, else the site's), with its version.
  const notice = site && chatConsent(site, agent);
  const consent = notice ? { consent: notice } : {};
  return { ...rest, tools, stages, demo: usesDemoModel(env), ...disclaimer, ...photos, ...keep, ...consent };
}
