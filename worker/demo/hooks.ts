import type { DemoHooks } from "../demo-hooks.ts";
import { TextIndex } from "../tools/text-index.ts";
import { demoCalendar } from "./demo-calendar.ts";
import { demoSite } from "./presets/demo-site.ts";
import { demoReply } from "./demo-upstream.ts";
import { deskDemoModel } from "./desk-model.ts";
import { DEMO_MCP_URL, demoMcpFetch } from "./demo-mcp.ts";
import { PRESET_AGENTS, PRESET_SITES } from "./presets/index.ts";
import { PRESET_KNOWLEDGE } from "./presets/knowledge/index.ts";
import { WEB_FIXTURES } from "./presets/knowledge/web-fixtures.ts";
import {
  DEMO_IDENTITY_SECRET,
  DEMO_IDENTITY_SECRET_NAME,
  DEMO_REPS,
  demoProfile,
  signDemoIdentity,
} from "./presets/sales-profiles.ts";

let fixtures: TextIndex<{ id: string; title: string; text: string; url: string; snippet: string }> | undefined;

/** The demo's presets, loopback site, documents, web fixtures and scripted model, as one set of hooks. */
export const demoHooks: DemoHooks = {
  site: (siteKey) => PRESET_SITES[siteKey],
  agent: (agentId) => PRESET_AGENTS[agentId],
  corsOrigins: Object.values(PRESET_SITES).flatMap((s) => s.allowedOrigins),
  knowledge: (tenantId) => PRESET_KNOWLEDGE[tenantId],
  webSearch(query, maxResults) {
    // Indexed on first use: a worker in demo mode that never searches the web never pays for it.
    fixtures ??= new TextIndex(WEB_FIXTURES.map((r, i) => ({ ...r, id: String(i), text: r.snippet })));
    return fixtures.search(query, maxResults).map(({ title, url, snippet }) => ({ title, url, snippet }));
  },
  secrets: { [DEMO_IDENTITY_SECRET_NAME]: DEMO_IDENTITY_SECRET },
  profile: demoProfile,
  signIdentity: async (rep) => ((DEMO_REPS as readonly string[]).includes(rep) ? signDemoIdentity(rep) : undefined),
  model: demoReply,
  desk: deskDemoModel,
  calendar: (siteKey) => (siteKey === demoSite.siteKey ? demoCalendar : undefined),
  mcpFetch: (url) => (new URL(url).origin === new URL(DEMO_MCP_URL).origin ? demoMcpFetch : undefined),
};
