import type { AgentConfigInput, SiteConfigInput } from "../shared/config/agent-config.ts";
import type { WebResult } from "../shared/tools/web-search.ts";
import type { UpstreamBody } from "./llm/upstream-body.ts";
import type { ModelReply } from "./llm/model-reply.ts";
import type { CalendarConnector } from "./booking/calendar-connector.ts";
import type { IndexedDoc } from "./tools/text-index.ts";
import type { DeskCompletion, DeskRequest } from "./strategy/desk-llm.ts";

/**
 * What demo mode plugs into the worker. The entry point (worker/index.ts) puts it on `env.demo`
 * only when DEMO_MODE is on, so config, CORS, the model call and the tools ask `env.demo` and never
 * import the demo module: a deployed worker has no presets, no demo site and no demo model.
 */
export interface DemoHooks {
  /** Preset sites and agents, answered when KV has no entry for the key. */
  site(siteKey: string): SiteConfigInput | undefined;
  agent(agentId: string): AgentConfigInput | undefined;
  /** Origin patterns CORS answers besides the `origin:<origin>` entries in KV (the demo site's loopback). */
  corsOrigins: readonly string[];
  /** Documents knowledge_search ranks for a tenant without `docs:<tenantId>` in KV. */
  knowledge(tenantId: string): readonly IndexedDoc[] | undefined;
  /** Stand-in results for web_search when no TAVILY_API_KEY is set. */
  webSearch(query: string, maxResults: number): WebResult[];
  /** The scripted model, answering as a provider would, when no LLM_BASE_URL is set. */
  model(agentId: string, body: UpstreamBody, chunkMs: number): ModelReply;
  /** Worker secrets only the demo has (the demo site's identity secret: its signer is published). */
  secrets: Readonly<Record<string, string>>;
  /** The demo's stand-in for a host's backend: a demo rep's signed identity (undefined for anyone else). */
  signIdentity(rep: string): Promise<string | undefined>;
  /** Customer profiles profile_reader reads for a site without `profile:<site>:<id>` in KV. */
  profile(siteKey: string, customerId: string): ({ reps: string[] } & Record<string, unknown>) | undefined;
  /** The demo clinic's calendar for the demo site (booking in the chat without a Cal.com account). */
  calendar(siteKey: string): CalendarConnector | undefined;
  /** The demo's own MCP server (demo-mcp.ts), answered in the worker for its reserved address; else undefined. */
  mcpFetch(url: string): ((input: string | URL | Request, init?: RequestInit) => Promise<Response>) | undefined;
  /** The scripted strategy desk: editors A and B, reviewer C and the judge, each completion taking `ms`. */
  desk(req: DeskRequest, ms: number): Promise<DeskCompletion>;
}
