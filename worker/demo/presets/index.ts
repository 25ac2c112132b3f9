import type { AgentConfigInput, SiteConfigInput } from "../../../shared/agent-config.ts";
import type { DemoScript } from "../demo-script.ts";
import { demoSite } from "./demo-site.ts";
import { dermConsult, dermConsultScript } from "./derm-consult.ts";
import { medicalQa, medicalQaScript } from "./medical-qa.ts";
import { protocolDesigner, protocolDesignerScript } from "./protocol-designer.ts";
import { salesCoach, salesCoachScript } from "./sales-coach.ts";

/** Built-in configs: the fallback when KV has no entry, so a fresh local run works. */
export const PRESET_AGENTS: Record<string, AgentConfigInput> = {
  [dermConsult.id]: dermConsult,
  [medicalQa.id]: medicalQa,
  [salesCoach.id]: salesCoach,
  [protocolDesigner.id]: protocolDesigner,
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
