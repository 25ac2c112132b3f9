import type { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import { capabilitiesOf, type ModelCapabilities, type ProviderProfile } from "../../shared/config/provider-config.ts";
import { ApiError } from "../errors.ts";

/** One model to ask, at its provider; `provider: null` is the worker's own LLM_BASE_URL. */
export interface ModelTarget {
  provider: ProviderProfile | null;
  model: string;
  caps: ModelCapabilities;
  /** Where it came from in the config, for errors that name the field. */
  field: string;
}

/**
 * Whether the agent's turns need native tool calls: its router always classifies with a forced
 * tool call; its tools and stages need them unless it reads actions from text (text ReAct).
 */
function needsTools(agent: AgentConfig): boolean {
  return !!agent.router || (agent.strategy !== "text-react" && (agent.tools.length > 0 || agent.stages.length > 0));
}

function target(site: SiteConfig, providerId: string | undefined, model: string, field: string): ModelTarget {
  if (!site.providers.length) return { provider: null, model, caps: capabilitiesOf(undefined, model), field };
  const id = providerId ?? site.providers.find((p) => p.models[model])?.id ?? site.providers[0].id;
  const index = site.providers.findIndex((p) => p.id === id);
  if (index < 0)
    throw misconfigured(`${field}: provider ${JSON.stringify(id)} is not among site ${site.siteKey}'s providers`);
  const provider = site.providers[index];
  const listed = provider.models[model]
    ? `providers[${index}].models[${JSON.stringify(model)}]`
    : `providers[${index}]`;
  return { provider, model, caps: capabilitiesOf(provider, model), field: `${field} (${listed})` };
}

const misconfigured = (message: string) => new ApiError(502, "misconfigured", message);

/**
 * The models a turn may be answered by, in order: the one asked for (the agent's, or one the site
 * allows), then the site's fallbacks. A model that cannot do what the agent's strategy needs is a
 * config error naming the field, not a failure the visitor meets halfway through a turn.
 */
export function modelTargets(site: SiteConfig, agent: AgentConfig, requested?: string): ModelTarget[] {
  const model = requested ?? agent.model;
  // A model the site allows besides the agent's: at the provider that lists it, else the agent's.
  const providerId =
    model === agent.model ? agent.provider : (site.providers.find((p) => p.models[model])?.id ?? agent.provider);
  const first = target(
    site,
    providerId,
    model,
    requested && requested !== agent.model ? "model" : `agent ${agent.id}: model`,
  );
  const rest = site.fallbacks
    .map((f, i) => target(site, f.provider, f.model, `site ${site.siteKey}: fallbacks[${i}]`))
    .filter((t) => !(t.model === first.model && t.provider?.id === first.provider?.id));
  const targets = [first, ...rest];
  if (needsTools(agent)) {
    const bad = targets.find((t) => !t.caps.tools);
    if (bad) {
      const uses = `strategy "${agent.strategy}" with tools${agent.router ? " and a router" : ""}`;
      throw misconfigured(
        `Agent ${agent.id} uses ${uses}, but ${bad.field} is model ${JSON.stringify(bad.model)} with tools: false. ` +
          `Give the agent strategy "text-react" (tools read from text; no router) or a model with native tools`,
      );
    }
  }
  return targets;
}
