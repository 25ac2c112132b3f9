import type { SiteConfig } from "../../shared/agent-config.ts";

/** The demo site key used by the local demo pages and tests; loopback origins only. */
export const demoSite: SiteConfig = {
  siteKey: "demo-site-key-0001",
  tenantId: "demo",
  allowedOrigins: ["http://127.0.0.1:*", "http://localhost:*"],
  agents: ["derm-consult", "medical-qa", "sales-coach", "protocol-designer"],
};
