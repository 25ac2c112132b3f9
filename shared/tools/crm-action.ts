import { z } from "zod/mini";
import { defineTool } from "./tool.ts";

/**
 * The sales coach's CRM action: runs on the worker against the site's webhook (its secret never reaches the
 * browser). The same call sent again (a retry) acts once: the worker keys it by its arguments.
 */
export const crmAction = defineTool({
  name: "crm_action",
  runsOn: "edge",
  description:
    "Log a follow-up on a deal, or move a deal to another stage, in the company's CRM. Only when the rep asks for it.",
  input: z.object({
    action: z.enum(["log_follow_up", "move_deal_stage"]),
    dealId: z.string().check(z.minLength(1), z.maxLength(80)),
    note: z.optional(z.string().check(z.maxLength(2000))),
    stage: z.optional(z.string().check(z.maxLength(80))),
    dueDate: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))),
  }),
});
