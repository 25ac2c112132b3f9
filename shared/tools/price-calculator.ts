import { z } from "zod/mini";
import { defineTool } from "./tool.ts";

const Amount = z.string().check(z.regex(/^-?\d{1,15}(\.\d{1,6})?$/, 'a decimal amount as a string, e.g. "19.99"'));

/**
 * The sales coach's price calculator: a quote the rep can read out, computed on the worker with exact
 * decimals (amounts are strings so no float ever touches them), with the tenant's volume tiers.
 */
export const priceCalculator = defineTool({
  name: "price_calculator",
  runsOn: "edge",
  description: [
    "Compute a quote: each item's unit price times quantity, the volume discount of the tier the quantity reaches,",
    "the total, and optionally the ROI against the customer's expected yearly benefit. Amounts are decimal strings.",
  ].join(" "),
  input: z.object({
    items: z
      .array(
        z.object({
          name: z.string().check(z.minLength(1), z.maxLength(120)),
          unitPrice: Amount,
          quantity: z.int().check(z.gte(1), z.lte(1_000_000)),
        }),
      )
      .check(z.minLength(1), z.maxLength(50)),
    /** Volume tiers: from `minQuantity` units of an item, `discountPercent` off that line. */
    tiers: z.optional(
      z.array(z.object({ minQuantity: z.int().check(z.gte(1)), discountPercent: Amount })).check(z.maxLength(20)),
    ),
    /** The customer's expected benefit a year, for the ROI. */
    yearlyBenefit: z.optional(Amount),
  }),
});
