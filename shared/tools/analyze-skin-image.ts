import { z } from "zod/mini";
import { defineTool } from "./tool.ts";

/**
 * The dermatology consult's `analyze_skin_image`: its model asks for the visitor's photos to be read by
 * the vision model. It runs on the worker, which holds the photos and the provider's key; the
 * findings come back to the model and become an advice card with the photos as its evidence.
 */
export const analyzeSkinImage = defineTool({
  name: "analyze_skin_image",
  runsOn: "edge",
  description: [
    "Have the visitor's latest photos of their skin examined.",
    "Call it once after the visitor sends a photo; pass what they told you (where, how long, symptoms).",
    "The findings are shown to the visitor as a card: refer to it, and never state a diagnosis as certain.",
  ].join(" "),
  input: z.object({
    context: z._default(z.string().check(z.maxLength(1000)), ""),
  }),
});

export const SEE_DERMATOLOGIST = ["not_needed", "routine", "soon", "urgent"] as const;

/**
 * What the vision model reports about a photo, as a forced function call: the same schema is the
 * function's parameters and the validator of its arguments (one tool abstraction).
 */
export const reportSkinFindings = defineTool({
  name: "report_skin_findings",
  runsOn: "edge",
  description: "Report what the photo shows, carefully: observations, possible conditions, red flags, next step.",
  input: z.object({
    /** What is visible: colour, shape, size, borders, texture, distribution. Facts, not conclusions. */
    observations: z.array(z.string().check(z.minLength(1), z.maxLength(300))).check(z.minLength(1), z.maxLength(8)),
    /** Conditions it may be, each with how likely and why; never certain. */
    possibleConditions: z
      .array(
        z.object({
          name: z.string().check(z.minLength(1), z.maxLength(100)),
          likelihood: z.enum(["possible", "less likely"]),
          why: z.string().check(z.maxLength(300)),
        }),
      )
      .check(z.maxLength(5)),
    /** Signs that need a doctor soon or now (e.g. fever with a spreading rash, a changing mole). */
    redFlags: z.array(z.string().check(z.minLength(1), z.maxLength(300))).check(z.maxLength(6)),
    seeDermatologist: z.enum(SEE_DERMATOLOGIST),
    /** One or two sentences for the visitor, in their language. */
    summary: z.string().check(z.minLength(1), z.maxLength(600)),
  }),
});
