/**
 * The tool schemas (zod/mini) in one module the widget imports lazily: only agents that use
 * tools pay for the validator, and only once their first turn starts (or when idle after opening).
 */
export { TOOLS } from "../../shared/tools/index.ts";
export { classifyIntent } from "../../shared/tools/classify-intent.ts";
