import { z } from "zod/mini";
import { EMERGENCY_SITUATIONS } from "../wire/protocol.ts";
import { defineTool } from "./tool.ts";

export const ESCALATE_EMERGENCY = "escalate_emergency";

/**
 * The emergency guard's model layer: the agent's model raises the urgent card itself when the
 * visitor describes an emergency the rules did not recognise. The worker runs it as the reply
 * streams (never the browser, and never through the tools route): it raises the escalation, keeps
 * the call out of the client's stream and asks the model for the rest of its answer.
 */
export const escalateEmergency = defineTool({
  name: ESCALATE_EMERGENCY,
  runsOn: "edge",
  description: [
    "Show the visitor an urgent card with the emergency numbers for where they are.",
    "Call it before writing anything when the visitor's latest message describes a possible emergency happening",
    "now, to them or to someone with them, or thoughts of suicide or self-harm, said plainly or indirectly.",
    "Not for general questions, fiction, news, history, events that are over, or figures of speech.",
    "Give the situation and quote the visitor's words that show it.",
  ].join(" "),
  input: z.object({
    situation: z.enum(EMERGENCY_SITUATIONS),
    /** The visitor's own words that show it, for the site owner's review. */
    words: z.string().check(z.minLength(1), z.maxLength(300)),
  }),
});
