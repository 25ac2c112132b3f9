import { z } from "zod/mini";
import { TOOL_NAMES } from "./tool-names.ts";
import { defineTool } from "./tool.ts";

/**
 * Two-group sample size (normal approximation): comparison of means by standardized effect size
 * (Cohen's d, or a difference and SD), or of proportions (p1, p2). Runs in the widget: it is
 * arithmetic, needs no secret, and the researcher sees the result at once.
 */
export const sampleSize = defineTool({
  name: TOOL_NAMES.sampleSize,
  runsOn: "client",
  description:
    "Compute the sample size of a two-group study. outcome " +
    "'means': give effect_size (Cohen's d) or mean_difference " +
    "and sd; outcome 'proportions': give p1 and p2. alpha is " +
    "two-sided; allocation_ratio is group 2 size / group 1 size; " +
    "dropout is the expected fraction lost (0-0.9).",
  input: z.object({
    outcome: z.enum(["means", "proportions"]),
    alpha: z._default(z.number().check(z.gt(0), z.lt(0.5)), 0.05),
    power: z._default(z.number().check(z.gt(0.5), z.lt(1)), 0.8),
    effect_size: z.optional(z.number().check(z.gt(0))),
    mean_difference: z.optional(z.number()),
    sd: z.optional(z.number().check(z.gt(0))),
    p1: z.optional(z.number().check(z.gt(0), z.lt(1))),
    p2: z.optional(z.number().check(z.gt(0), z.lt(1))),
    allocation_ratio: z._default(z.number().check(z.gt(0), z.lte(10)), 1),
    dropout: z._default(z.number().check(z.gte(0), z.lt(0.9)), 0),
  }),
});
