import { z } from "zod/mini";
import { TOOL_NAMES } from "./tool-names.ts";
import { defineTool } from "./tool.ts";

/**
 * The strategy desk's update tool: the chat agent asks its site's strategy desk to change how it leads
 * conversations, when a conversation shows its strategy failed the visitor. Queued, not applied:
 * the desk edits, reviews and gates the change in the background.
 */
export const suggestStrategyUpdate = defineTool({
  name: TOOL_NAMES.suggestStrategyUpdate,
  runsOn: "edge",
  description:
    "When this conversation shows that your conversation strategy failed the visitor, describe the change " +
    "your strategies need (what went wrong, what to do instead). It is reviewed in the background; it does " +
    "not change this conversation.",
  input: z.object({
    update: z.string().check(z.minLength(10), z.maxLength(1000)),
    context: z.optional(z.string().check(z.maxLength(1000))),
  }),
});
