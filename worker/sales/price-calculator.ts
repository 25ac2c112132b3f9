import type { ToolInput } from "../../shared/tools/tool.ts";
import type { priceCalculator } from "../../shared/tools/price-calculator.ts";
import { div, format, fromInt, mul, parseDecimal, toCents } from "./decimal.ts";

export interface QuoteLine {
  name: string;
  quantity: number;
  unitPrice: string;
  subtotal: string;
  discountPercent: string;
  discount: string;
  total: string;
}

export interface Quote {
  lines: QuoteLine[];
  subtotal: string;
  discount: string;
  total: string;
  /** (benefit - total) / total, in percent with one decimal; when a yearly benefit was given. */
  roiPercent?: string;
  /** Months until the benefit has paid the total back. */
  paybackMonths?: string;
}

/**
 * The quote, to the cent: each line is rounded to cents once (after its discount), and the totals
 * are sums of those rounded lines, so the lines always add up to the total the rep reads out.
 */
export function computeQuote(input: ToolInput<typeof priceCalculator>): Quote {
  const tiers = [...(input.tiers ?? [])].sort((a, b) => b.minQuantity - a.minQuantity);
  let subtotal = 0n;
  let discount = 0n;
  const lines = input.items.map((item) => {
    const unit = parseDecimal(item.unitPrice);
    if (unit < 0n) throw new RangeError(`${item.name}: a unit price may not be negative`);
    const gross = toCents(mul(unit, fromInt(item.quantity)));
    const tier = tiers.find((t) => item.quantity >= t.minQuantity);
    const pct = tier ? parseDecimal(tier.discountPercent) : 0n;
    if (pct < 0n || pct > fromInt(100))
      throw new RangeError(`A discount must be between 0 and 100 %, not ${tier?.discountPercent}`);
    const off = toCents(div(mul(gross, pct), fromInt(100)));
    subtotal += gross;
    discount += off;
    return {
      name: item.name,
      quantity: item.quantity,
      unitPrice: format(unit, 2),
      subtotal: format(gross),
      discountPercent: format(pct, 2),
      discount: format(off),
      total: format(gross - off),
    };
  });
  const total = subtotal - discount;
  const quote: Quote = { lines, subtotal: format(subtotal), discount: format(discount), total: format(total) };
  if (input.yearlyBenefit !== undefined && total > 0n) {
    const benefit = parseDecimal(input.yearlyBenefit);
    quote.roiPercent = format(div(mul(benefit - total, fromInt(100)), total), 1);
    if (benefit > 0n) quote.paybackMonths = format(div(mul(total, fromInt(12)), benefit), 1);
  }
  return quote;
}
