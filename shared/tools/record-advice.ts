import { z } from "zod/mini";
import { ADVICE_SEVERITIES } from "../wire/protocol.ts";
import { TOOL_NAMES } from "./tool-names.ts";
import { defineTool } from "./tool.ts";

/**
 * The dermatology consult's advice cards: advice is recorded only when the model calls this tool —
 * never extracted from prose by keywords. The widget shows each call as an advice card and keeps it
 * in the session.
 */
export const recordAdvice = defineTool({
  name: TOOL_NAMES.recordAdvice,
  runsOn: "client",
  description: [
    "Record one piece of advice for the visitor as a card they can keep.",
    "Call it when you give a concrete recommendation (care steps, when to see a doctor, what to avoid),",
    "once per distinct piece of advice, with the evidence that supports it. Do not call it for greetings or questions.",
  ].join(" "),
  input: z.object({
    title: z.string().check(z.minLength(1), z.maxLength(120)),
    content: z.string().check(z.minLength(1), z.maxLength(2000)),
    evidence: z.array(z.string().check(z.maxLength(500))).check(z.maxLength(10)),
    severity: z.enum(ADVICE_SEVERITIES),
    category: z.string().check(z.minLength(1), z.maxLength(60)),
  }),
});
