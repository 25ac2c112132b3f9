/**
 * The demo: preset agents and their scripted conversations, the demo site (loopback origins and a
 * published admin key), demo documents, web-search fixtures and the scripted model. Everything
 * here is switched on by DEMO_MODE, which `npm start` and the end-to-end tests set and a deploy
 * never does; the worker's entry point is the only production code that imports this module, and
 * tests, benchmarks and scripts reach demo things only through this file.
 */
import type { DemoHooks } from "../demo-hooks.ts";
import { demoHooks } from "./hooks.ts";

export { demoSite, DEMO_ADMIN_KEY } from "./presets/demo-site.ts";
export { PRESET_AGENTS, PRESET_SITES, DEMO_SCRIPTS } from "./presets/index.ts";
export { dermConsultScript } from "./presets/derm-consult.ts";
export { medicalQaScript } from "./presets/medical-qa.ts";
export { salesCoachScript } from "./presets/sales-coach.ts";
export { DEMO_IDENTITY_SECRET, signDemoIdentity } from "./presets/sales-profiles.ts";
export { PRESET_KNOWLEDGE } from "./presets/knowledge/index.ts";
export { WEB_FIXTURES } from "./presets/knowledge/web-fixtures.ts";
export { DEMO_MODEL, demoRequest } from "./demo-upstream.ts";
export { demoChunks, demoCompletion, pickDemoStep, stepToolCalls, tokenize, sseData, SSE_DONE } from "./demo-model.ts";
export type { DemoRequest } from "./demo-model.ts";
export type { DemoScript, DemoStep, DemoTurn, DemoToolCall } from "./demo-script.ts";

/** DEMO_MODE is on for "1" or "true"; anything else (unset in wrangler.toml and deploys) is off. */
export function isDemoMode(env: { DEMO_MODE?: string }): boolean {
  return env.DEMO_MODE === "1" || env.DEMO_MODE === "true";
}

/** The env the app sees: with the demo's hooks in demo mode, unchanged otherwise. */
export function withDemo<E extends { DEMO_MODE?: string; demo?: DemoHooks }>(env: E): E {
  return isDemoMode(env) ? { ...env, demo: demoHooks } : env;
}
