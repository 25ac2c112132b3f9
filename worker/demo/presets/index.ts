import type { AgentConfigInput, SiteConfigInput } from "../../../shared/config/agent-config.ts";
import { AGENT_TEMPLATES } from "../../templates/index.ts";
import type { DemoScript } from "../demo-script.ts";
import { demoSite } from "./demo-site.ts";
import { dermConsultScript } from "./derm-consult.ts";
import { medicalQaScript } from "./medical-qa.ts";
import { protocolDesignerScript } from "./protocol-designer.ts";
import { salesCoachScript } from "./sales-coach.ts";

import { DEMO_MCP_TOOL } from "./demo-site.ts";

/**
 * Built-in configs: the fallback when KV has no entry, so a fresh local run works (the agent templates);
 * the demo clinic books visits in the chat (its site connects the demo calendar), and the demo's sales
 * coach may also use the demo site's MCP tool.
 */
export const PRESET_AGENTS: Record<string, AgentConfigInput> = {
  ...AGENT_TEMPLATES,
  "derm-consult": { ...AGENT_TEMPLATES["derm-consult"]!, booking: true },
  "sales-coach": {
    ...AGENT_TEMPLATES["sales-coach"],
    tools: [...AGENT_TEMPLATES["sales-coach"].tools!, DEMO_MCP_TOOL],
  },
};

export const PRESET_SITES: Record<string, SiteConfigInput> = {
  [demoSite.siteKey]: demoSite,
};

export const DEMO_SCRIPTS: Record<string, DemoScript> = {
  [dermConsultScript.agentId]: dermConsultScript,
  [medicalQaScript.agentId]: medicalQaScript,
  [salesCoachScript.agentId]: salesCoachScript,
  [protocolDesignerScript.agentId]: protocolDesignerScript,
};
