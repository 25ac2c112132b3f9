/**
 * Everything an agent with tools needs and a plain chat agent does not, in one module the widget
 * imports lazily: the tool schemas (zod/mini), their execution (browser tools, edge calls) and the
 * router. Loaded once the agent's config says it has tools, a router or stages (or on first need).
 */
export { TOOLS } from "../../shared/tools/index.ts";
export { classifyIntent } from "../../shared/tools/classify-intent.ts";
export { createClientTools } from "./client-tools.ts";
export { executeToolCalls } from "./executor.ts";
export { routeTurn } from "./router.ts";
