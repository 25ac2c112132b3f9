import { z } from "zod/mini";
import { TOOL_NAMES } from "./tool-names.ts";
import { defineTool } from "./tool.ts";

/**
 * The router's structured answer (the medical Q&A desk's quick path). Not run by anyone: the worker forces the model to
 * call it, and the widget reads the arguments as the route decision.
 */
export const classifyIntent = defineTool({
  name: TOOL_NAMES.classifyIntent,
  runsOn: "edge",
  description: "Classify the visitor's latest message into exactly one of the listed intents, with your confidence.",
  input: z.object({
    intent: z.string().check(z.minLength(1), z.maxLength(60)),
    confidence: z.number().check(z.gte(0), z.lte(1)),
    reason: z.optional(z.string().check(z.maxLength(300))),
  }),
});
