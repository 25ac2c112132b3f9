import { Hono } from "hono";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import { MCP_SECRET_PREFIX, McpServersInput, type McpServerConfig } from "../../shared/config/mcp-config.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { AppEnv, Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { readSiteFresh } from "../config/config-store.ts";
import { secretIsSet } from "../config/named-secret.ts";
import { writeSite } from "../config/site-writes.ts";
import { outboundUrlProblem } from "../net/outbound-url.ts";
import { validationFailed } from "../errors.ts";
import { McpProbeInput } from "../../shared/admin/mcp-probe.ts";
import { probeMcpServer } from "../mcp/mcp-probe.ts";

type AdminEnv = AppEnv & { Variables: { site: SiteConfig } };

/** The site's MCP servers, for its owner (behind the admin middleware); agents allowlist their tools. */
export const mcpAdminRoutes = new Hono<AdminEnv>();

const view = (env: Env, servers: McpServerConfig[]) => ({
  servers: servers.map((s) => ({ ...s, secretSet: s.auth ? secretIsSet(env, s.auth.secretName) : false })),
});

async function stored(env: Env, siteKey: string): Promise<SiteConfig> {
  const site = await readSiteFresh(env, siteKey);
  if (!site) throw new ApiError(404, "unknown_site", "The site is no longer configured");
  return site;
}

mcpAdminRoutes.get(ROUTES.adminMcpServers, async (c) => {
  const site = await stored(c.env, c.var.site.siteKey);
  return c.json(view(c.env, site.mcpServers));
});

/** A server's address and secret name as written, each problem at its field under `prefix`. */
function serverProblems(s: McpServerConfig, demo: boolean, prefix: string[]) {
  const at = (field: string, message: string) => ({ path: [...prefix, ...field.split(".")], message });
  const url = outboundUrlProblem(s.url, demo);
  return [
    ...(url ? [at("url", url)] : []),
    ...(s.auth && !s.auth.secretName.startsWith(MCP_SECRET_PREFIX)
      ? [at("auth.secretName", `an MCP secret's name starts with ${MCP_SECRET_PREFIX} (e.g. MCP_ORDERS_TOKEN)`)]
      : []),
  ];
}

/** The whole list, each address checked before it is kept: no request ever leaves for a refused one. */
mcpAdminRoutes.put(ROUTES.adminMcpServers, jsonBody(McpServersInput), async (c) => {
  const { servers } = c.req.valid("json");
  const demo = Boolean(c.env.demo);
  const problems = servers.flatMap((s, i) => [
    ...serverProblems(s, demo, ["servers", String(i)]),
    ...(servers.findIndex((o) => o.id === s.id) < i
      ? [{ path: ["servers", String(i), "id"], message: `${s.id} is listed twice` }]
      : []),
  ]);
  if (problems.length) throw validationFailed(problems);
  const site = await stored(c.env, c.var.site.siteKey);
  await writeSite(c.env, { ...site, mcpServers: servers });
  return c.json(view(c.env, servers));
});

/**
 * "Test connection": lists one server's tools from the worker, as a turn would, saved or not. An address
 * or secret name the list would refuse is refused here at its field, before any request leaves.
 */
mcpAdminRoutes.post(ROUTES.adminMcpServerTest, jsonBody(McpProbeInput), async (c) => {
  const { server } = c.req.valid("json");
  const problems = serverProblems(server, Boolean(c.env.demo), ["server"]);
  if (problems.length) throw validationFailed(problems);
  return c.json(await probeMcpServer(c.env, c.var.site.siteKey, server, true));
});

/** Every saved server's tools, for the agent editor's allowlist: from the worker's cache when it has them. */
mcpAdminRoutes.get(ROUTES.adminMcpTools, async (c) => {
  const site = await stored(c.env, c.var.site.siteKey);
  const servers = await Promise.all(site.mcpServers.map((s) => probeMcpServer(c.env, site.siteKey, s, false)));
  return c.json({ servers });
});
