import type { AgentConfigInput } from "../../shared/config/agent-config.ts";
import { dermConsult } from "./derm-consult.ts";
import { medicalQa } from "./medical-qa.ts";
import { protocolDesigner } from "./protocol-designer.ts";
import { salesCoach } from "./sales-coach.ts";

/**
 * Agents an owner starts from (the console's "create from a template", `npm run presets:install`).
 * Production code: configs only, with real model names and built-in endpoints. The demo (worker/demo/)
 * serves these same configs as its presets and adds what only a demo has: the scripted conversations,
 * the loopback site with its published admin key, and the scripted model.
 */
export const AGENT_TEMPLATES: Readonly<Record<string, AgentConfigInput>> = {
  [dermConsult.id]: dermConsult,
  [medicalQa.id]: medicalQa,
  [salesCoach.id]: salesCoach,
  [protocolDesigner.id]: protocolDesigner,
};
