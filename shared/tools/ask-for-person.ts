import { z } from "zod/mini";
import { TOOL_NAMES } from "./tool-names.ts";
import { defineTool } from "./tool.ts";

/**
 * Takeover: the agent asks for a person from the site's staff. Offered to the model only
 * when the site enables takeover (never named in an agent config); it runs on the worker, which
 * queues the conversation for staff or answers that nobody is available.
 */
export const askForPerson = defineTool({
  name: TOOL_NAMES.askForPerson,
  runsOn: "edge",
  description: [
    "Ask for a person from the site's staff to take over this conversation.",
    "Call it when the visitor asks to talk to a human, or when they need something you cannot do",
    "(a decision, a booking change, a complaint, an account problem). Give the reason in a few words.",
    "The result says whether the visitor is queued or nobody is available; tell the visitor which, briefly.",
  ].join(" "),
  input: z.object({
    reason: z.string().check(z.minLength(1), z.maxLength(300)),
  }),
});
