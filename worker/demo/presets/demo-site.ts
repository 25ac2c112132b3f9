import type { SiteConfigInput } from "../../../shared/config/agent-config.ts";
import { DEMO_MCP_URL } from "../demo-mcp.ts";

/** The demo warehouse's stock tool, over MCP (demo-mcp.ts), as the sales coach's allowlist names it. */
export const DEMO_MCP_TOOL = "mcp__warehouse__product_stock";

/** The demo site's admin key: published (README, tests), so it exists only in demo mode. */
export const DEMO_ADMIN_KEY = "demo-admin-key-0001";

/** The demo site key used by the local demo pages and tests; loopback origins only. */
export const demoSite = {
  siteKey: "demo-site-key-0001",
  tenantId: "demo",
  allowedOrigins: ["http://127.0.0.1:*", "http://localhost:*"],
  agents: ["derm-consult", "medical-qa", "sales-coach", "protocol-designer"],
  // Only the agents' own models; max_tokens at most 1024 whatever an agent allows.
  models: [],
  maxTokens: 1024,
  // One machine is every visitor of the demo (loopback, no CF-Connecting-IP): room for the e2e suite.
  rateLimits: { sessionPerMinute: 60, ipPerMinute: 600 },
  budgets: { sitePerDay: 2_000_000, perSession: 100_000 },
  // SHA-256 of DEMO_ADMIN_KEY (real sites keep theirs secret and store only this digest).
  adminKeySha256: "ec8870e7e1b9c51d24b6600f61e53499f5bef34aa6ab3aed6d461adfbbcc8862",
  // The strategy desk runs a minute after the last request and promotes what passes its gate; a run of visitor
  // requests only when 3 sessions made the same complaint (desk.visitorQuorum's default).
  desk: { debounceMs: 60_000, autoPromote: true, dailyTokens: 200_000 },
  // The sales coach's reps sign in with identities the demo signer makes (sales-profiles.ts).
  safety: { identity: { secretName: "DEMO_REP_IDENTITY_SECRET" } },
  // The clinic books visits against the demo calendar (worker/demo/demo-calendar.ts); the key is never read.
  booking: { provider: "calcom", apiKeySecret: "DEMO_CALENDAR_KEY", eventTypeId: 1 },
  // As every new site: personal details become placeholders in traces, the index and webhooks (docs/privacy.md).
  redactTraces: true,
  // The demo's own MCP server, answered inside the worker (no network): a warehouse's stock tool.
  mcpServers: [{ id: "warehouse", url: DEMO_MCP_URL }],
} satisfies SiteConfigInput;
