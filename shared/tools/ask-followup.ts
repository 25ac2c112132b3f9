import { z } from "zod/mini";
import { TOOL_NAMES } from "./tool-names.ts";
import { defineTool } from "./tool.ts";

/** The medical Q&A desk: stop over-asking. The rules live in the description the model reads. */
export const askFollowup = defineTool({
  name: TOOL_NAMES.askFollowup,
  runsOn: "client",
  description: [
    "Ask the visitor ONE follow-up question, only when information you truly need for a safe, useful answer is missing",
    "and cannot be reasonably assumed. Do not ask when you can already answer; do not ask more than once in a row;",
    "never ask for details that would not change your answer. Offer short answer options when they fit.",
  ].join(" "),
  input: z.object({
    question: z.string().check(z.minLength(1), z.maxLength(300)),
    options: z.optional(z.array(z.string().check(z.maxLength(80))).check(z.maxLength(6))),
    missing: z.string().check(z.minLength(1), z.maxLength(200)),
  }),
});
