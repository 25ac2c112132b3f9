import type { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import { mcpToolName, parseMcpToolName, type McpServerConfig } from "../../shared/config/mcp-config.ts";
import type { McpToolView } from "../../shared/admin/mcp-probe.ts";
import type { OpenAITool } from "../../shared/tools/tool.ts";
import type { Env } from "../env.ts";
import { IsolateCache } from "../isolate-cache.ts";
import { connectMcp, type AnswerSeen } from "./mcp-connect.ts";
import { inputSchemaProblem } from "./schema-check.ts";

/** How long a server's tool list is trusted; a call of a tool not in it lists again at once. */
export const MCP_LIST_CACHE_MS = 5 * 60_000;
/** A turn waits this long at most for a server's list; without it the turn goes on without its tools. */
const LIST_TIMEOUT_MS = 5_000;
const MAX_PAGES = 5;
const MAX_DESCRIPTION = 1_000;

/** A server's tools as the model gets them, and each tool it offered that cannot be offered, with why. */
export interface McpListing {
  tools: Map<string, OpenAITool>;
  problems: string[];
  /** Every tool the server listed, offered or not (the console's allowlist and "test connection"). */
  listed: McpToolView[];
}

const listings = new IsolateCache<McpListing>(MCP_LIST_CACHE_MS, 200);
const cacheKey = (siteKey: string, s: McpServerConfig) => `${siteKey}\n${s.id}\n${s.url}`;

/** The server's tools, listed afresh (`fresh`) or from the isolate's cache. */
export async function listMcpTools(
  env: Env,
  siteKey: string,
  server: McpServerConfig,
  fresh = false,
  answered?: AnswerSeen,
) {
  const key = cacheKey(siteKey, server);
  if (fresh) listings.delete(key);
  return listings.through(key, () => listTools(env, server, answered));
}

async function listTools(env: Env, server: McpServerConfig, answered?: AnswerSeen): Promise<McpListing> {
  const signal = AbortSignal.timeout(LIST_TIMEOUT_MS);
  const client = await connectMcp(env, server, signal, answered);
  const listing: McpListing = { tools: new Map(), problems: [], listed: [] };
  try {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await client.listTools(cursor ? { cursor } : {}, { signal, timeout: LIST_TIMEOUT_MS });
      for (const tool of res.tools) {
        const name = mcpToolName(server.id, tool.name);
        const problem = name ? inputSchemaProblem(tool.inputSchema) : "its name is not letters, digits, _ or -";
        const description = `${(tool.description ?? tool.title ?? tool.name).slice(0, MAX_DESCRIPTION)}`;
        listing.listed.push({ name, tool: tool.name.slice(0, 80), description, problem: problem ?? null });
        if (problem || !name) {
          listing.problems.push(`${server.id}/${tool.name}: ${problem}`);
          continue;
        }
        const { $schema: _drop, ...parameters } = tool.inputSchema as Record<string, unknown>;
        listing.tools.set(name, { type: "function", function: { name, description, parameters } });
      }
      cursor = res.nextCursor;
      if (!cursor) break;
    }
  } finally {
    await client.close().catch(() => {});
  }
  return listing;
}

/** The servers an agent's allowlist names, that the site has. */
function serversOf(site: SiteConfig, names: readonly string[]): McpServerConfig[] {
  const ids = new Set(names.flatMap((n) => parseMcpToolName(n)?.server ?? []));
  return site.mcpServers.filter((s) => ids.has(s.id));
}

/** Every MCP tool name an agent may use in a turn (its own list and its stages'). */
export function agentMcpNames(agent: AgentConfig): string[] {
  return [...agent.tools, ...agent.stages.flatMap((s) => s.tools)].filter((n) => parseMcpToolName(n));
}

/**
 * The allowlisted MCP tools a turn offers, with their servers' schemas. A server that is down or
 * answers garbage, or a tool with a schema the provider would refuse, leaves those tools out and
 * says why in `problems` (the owner's trace); the turn goes on with the rest.
 */
export async function mcpToolsForTurn(env: Env, site: SiteConfig, agent: AgentConfig) {
  const allowed = agentMcpNames(agent);
  if (!allowed.length) return { tools: [] as OpenAITool[], problems: [] as string[] };
  const results = await Promise.allSettled(serversOf(site, allowed).map((s) => listMcpTools(env, site.siteKey, s)));
  const tools: OpenAITool[] = [];
  const problems: string[] = [];
  const servers = serversOf(site, allowed);
  results.forEach((r, i) => {
    if (r.status === "rejected") {
      problems.push(`${servers[i].id}: tools could not be listed (${errorText(r.reason)})`);
      return;
    }
    problems.push(...r.value.problems);
    for (const name of allowed) {
      const tool = r.value.tools.get(name);
      if (tool) tools.push(tool);
    }
  });
  return { tools, problems };
}

export function errorText(err: unknown): string {
  const text = err instanceof Error ? `${err.name === "Error" ? "" : err.name + ": "}${err.message}` : String(err);
  return text.slice(0, 300);
}
