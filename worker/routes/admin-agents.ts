import { Hono, type Context } from "hono";
import { AgentConfig, type SiteConfig } from "../../shared/config/agent-config.ts";
import type { AdminAnswer } from "../../shared/wire/admin-answers.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { AppEnv } from "../env.ts";
import { ApiError, validationFailed } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { CONFIG_CACHE_MS, readSiteAgent, readSiteFresh } from "../config/config-store.ts";
import { deleteSiteAgent, writeSite, writeSiteAgent } from "../config/site-writes.ts";
import { TOOL_DEFS } from "../llm/tool-definitions.ts";
import { parseMcpToolName } from "../../shared/config/mcp-config.ts";
import { AGENT_TEMPLATES } from "../templates/index.ts";

export type AdminEnv = AppEnv & { Variables: { site: SiteConfig } };

/**
 * The site's agents for its owner: list, create (from a template or from scratch), read, update,
 * delete. Bodies are the AgentConfig schema the worker loads agents with; a tool the worker does
 * not know is refused at its field too, since the schema alone would let a typo pass silently.
 */
export const agentAdminRoutes = new Hono<AdminEnv>();

function unknownTools(agent: AgentConfig) {
  const named = [
    ...agent.tools.map((tool, i) => ({ tool, path: ["tools", String(i)] })),
    ...agent.stages.flatMap((s, si) =>
      s.tools.map((tool, i) => ({ tool, path: ["stages", String(si), "tools", String(i)] })),
    ),
  ];
  return named
    .filter(({ tool }) => !TOOL_DEFS[tool] && !parseMcpToolName(tool))
    .map(({ tool, path }) => ({ path, message: `No tool named ${JSON.stringify(tool)}` }));
}

export function checkTools(agent: AgentConfig) {
  const problems = unknownTools(agent);
  if (problems.length) throw validationFailed(problems);
}

export async function storedSite(c: Context<AdminEnv>) {
  const site = await readSiteFresh(c.env, c.var.site.siteKey);
  if (!site) throw new ApiError(404, "unknown_site", "The site is no longer configured");
  return site;
}

/** An edit of an agent of this site: its id unchanged, its tools known (PUT of the agent and of its draft). */
export function checkedEdit(c: Context<AdminEnv>, site: SiteConfig, agent: AgentConfig) {
  const id = ownAgentId(c, site);
  if (agent.id !== id)
    throw validationFailed([{ path: ["id"], message: `An agent's id cannot change (this is ${id})` }]);
  checkTools(agent);
  return agent;
}

export function ownAgentId(c: Context<AdminEnv>, site: SiteConfig) {
  const id = c.req.param("agent") ?? "";
  if (!site.agents.includes(id))
    throw new ApiError(404, "unknown_agent", `Agent ${JSON.stringify(id)} is not available for this site`);
  return id;
}

agentAdminRoutes.get(ROUTES.adminTemplates, (c) =>
  c.json({ templates: Object.values(AGENT_TEMPLATES).map((t) => AgentConfig.parse(t)) } satisfies AdminAnswer<
    "GET",
    typeof ROUTES.adminTemplates
  >),
);

agentAdminRoutes.get(ROUTES.adminAgents, async (c) => {
  const site = await storedSite(c);
  const agents = await Promise.all(
    site.agents.map(async (id) => {
      try {
        const found = await readSiteAgent(c.env, site.siteKey, id);
        if (!found) return { id, error: "No config is stored for this agent" };
        const { agent, source } = found;
        const { name, description, model, strategy, tools } = agent;
        return { id, name, description, model, strategy, tools, stages: agent.stages.length, source };
      } catch (err) {
        return { id, error: err instanceof Error ? err.message : String(err) };
      }
    }),
  );
  return c.json({ agents } satisfies AdminAnswer<"GET", typeof ROUTES.adminAgents>);
});

agentAdminRoutes.post(ROUTES.adminAgents, jsonBody(AgentConfig), async (c) => {
  const agent = c.req.valid("json");
  checkTools(agent);
  const site = await storedSite(c);
  if (site.agents.includes(agent.id))
    throw new ApiError(409, "conflict", `The site already has an agent ${agent.id}`, {
      issues: [{ path: "id", message: `${agent.id} is taken: choose another id` }],
    });
  await writeSiteAgent(c.env, site.siteKey, agent);
  await writeSite(c.env, { ...site, agents: [...site.agents, agent.id] });
  return c.json(
    { agent, source: "site", takesEffectWithinMs: CONFIG_CACHE_MS } satisfies AdminAnswer<
      "POST",
      typeof ROUTES.adminAgents
    >,
    201,
  );
});

agentAdminRoutes.get(ROUTES.adminAgent, async (c) => {
  const site = await storedSite(c);
  const id = ownAgentId(c, site);
  const found = await readSiteAgent(c.env, site.siteKey, id);
  if (!found) throw new ApiError(404, "unknown_agent", `No config is stored for agent ${id}`);
  return c.json(found satisfies AdminAnswer<"GET", typeof ROUTES.adminAgent>);
});

agentAdminRoutes.put(ROUTES.adminAgent, jsonBody(AgentConfig), async (c) => {
  const agent = c.req.valid("json");
  const site = await storedSite(c);
  checkedEdit(c, site, agent);
  await writeSiteAgent(c.env, site.siteKey, agent);
  return c.json({ agent, source: "site", takesEffectWithinMs: CONFIG_CACHE_MS } satisfies AdminAnswer<
    "PUT",
    typeof ROUTES.adminAgent
  >);
});

agentAdminRoutes.delete(ROUTES.adminAgent, async (c) => {
  const site = await storedSite(c);
  const id = ownAgentId(c, site);
  // Off the site's list first: from then on no session opens it, whatever the cache holds.
  await writeSite(c.env, { ...site, agents: site.agents.filter((a) => a !== id) });
  await deleteSiteAgent(c.env, site.siteKey, id);
  return c.json({ deleted: id } satisfies AdminAnswer<"DELETE", typeof ROUTES.adminAgent>);
});
