import { describe, expect, it } from "vitest";
import { checkCompliance } from "../../../worker/sales/compliance.ts";

describe("checkCompliance", () => {
  it("finds banned claims and price promises with their spans and rewrites, in English and Chinese", () => {
    const text = "Our cream cures eczema, and the price will never go up. 本品可根治湿疹，永不涨价。";
    const r = checkCompliance(text);
    expect(r.compliant).toBe(false);
    expect(r.violations.map((v) => [v.kind, v.text])).toEqual([
      ["claim", "cures"],
      ["price_promise", "the price will never go up"],
      ["claim", "根治"],
      ["price_promise", "永不涨价"],
    ]);
    for (const v of r.violations) expect(text.slice(v.span[0], v.span[1])).toBe(v.text);
    expect(r.rewritten).toBe(
      "Our cream helps soothe eczema, and this price is valid until the quote " +
        "expires. 本品可改善湿疹，在报价有效期内不涨价。",
    );
  });

  it("adds the tenant's own rules, whole words only", () => {
    const rules = [{ phrase: "clinically proven", rewrite: "tested in a clinical study", kind: "claim" as const }];
    expect(checkCompliance("It is clinically proven to hydrate.", rules).rewritten).toBe(
      "It is tested in a clinical study to hydrate.",
    );
    expect(checkCompliance("It is clinically provenance-free.", rules).compliant).toBe(true);
  });

  it("passes compliant talking points unchanged", () => {
    const text = "Fragrance-free, supports the skin barrier as part of a routine; samples let patients test tolerance.";
    expect(checkCompliance(text)).toEqual({ compliant: true, violations: [], rewritten: text });
  });
});
