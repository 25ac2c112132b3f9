import { z } from "zod/mini";
import { defineTool } from "./tool.ts";

/** The sales coach's compliance check: the tenant's rules on claims and price promises, run on the worker. */
export const complianceCheck = defineTool({
  name: "compliance_check",
  runsOn: "edge",
  description: [
    "Check talking points, an email or a quote text against the company's compliance rules (banned claims such as",
    '"cure" or "guaranteed", price promises). Returns each violation with its span and a compliant rewrite.',
    "Call it on anything you will show the rep before showing it.",
  ].join(" "),
  input: z.object({
    text: z.string().check(z.minLength(1), z.maxLength(8000)),
    /** Set by the widget's executor for a finished reply: the rep's flag card comes back with the result. */
    replyId: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  }),
});
