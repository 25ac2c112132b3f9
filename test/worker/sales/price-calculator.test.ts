import { describe, expect, it } from "vitest";
import { div, format, fromInt, mul, parseDecimal } from "../../../worker/sales/decimal.ts";
import { computeQuote } from "../../../worker/sales/price-calculator.ts";

describe("exact decimal money", () => {
  it("adds and multiplies awkward decimals without float drift", () => {
    expect(format(parseDecimal("0.1") + parseDecimal("0.2"))).toBe("0.30");
    expect(format(mul(parseDecimal("19.99"), fromInt(3)))).toBe("59.97");
    expect(format(mul(parseDecimal("1.005"), fromInt(1)))).toBe("1.01"); // a float's toFixed(2) says 1.00
    expect(format(mul(parseDecimal("33.333333"), fromInt(3)))).toBe("100.00");
    expect(format(div(fromInt(10), fromInt(3)), 6)).toBe("3.333333");
    expect(format(parseDecimal("-0.004"))).toBe("0.00");
    expect(format(parseDecimal("-2.5"), 0)).toBe("-3");
  });

  it("refuses what is not a decimal amount", () => {
    for (const bad of ["1e3", "12,50", "0.1234567", "", "NaN"])
      expect(() => parseDecimal(bad)).toThrow(/Not a decimal amount/);
  });
});

describe("computeQuote", () => {
  it("applies the tier the quantity reaches, rounds each line once, and the lines add up to the total", () => {
    const q = computeQuote({
      items: [
        { name: "Cream 50 ml", unitPrice: "19.99", quantity: 120 },
        { name: "Serum", unitPrice: "0.05", quantity: 55 },
        { name: "Sample", unitPrice: "0.1", quantity: 3 },
      ],
      tiers: [
        { minQuantity: 50, discountPercent: "5" },
        { minQuantity: 100, discountPercent: "12.5" },
      ],
      yearlyBenefit: "4000",
    });
    expect(q.lines.map((l) => [l.subtotal, l.discountPercent, l.discount, l.total])).toEqual([
      ["2398.80", "12.50", "299.85", "2098.95"],
      ["2.75", "5.00", "0.14", "2.61"], // 5 % of 2.75 is 0.1375: half away from zero to 0.14
      ["0.30", "0.00", "0.00", "0.30"],
    ]);
    expect([q.subtotal, q.discount, q.total]).toEqual(["2401.85", "299.99", "2101.86"]);
    const sum = q.lines.reduce((n, l) => n + parseDecimal(l.total), 0n);
    expect(format(sum)).toBe(q.total);
    expect(q.roiPercent).toBe("90.3"); // (4000 - 2101.86) / 2101.86
    expect(q.paybackMonths).toBe("6.3");
  });

  it("refuses a negative price and a discount over 100 %", () => {
    expect(() => computeQuote({ items: [{ name: "x", unitPrice: "-1", quantity: 1 }] })).toThrow(/negative/);
    expect(() =>
      computeQuote({
        items: [{ name: "x", unitPrice: "1", quantity: 5 }],
        tiers: [{ minQuantity: 1, discountPercent: "120" }],
      }),
    ).toThrow(/between 0 and 100/);
  });
});
