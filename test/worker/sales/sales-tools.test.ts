import { describe, expect, it } from "vitest";
import { auth, call, openSession } from "../../helpers/worker/client.ts";
import { putSite } from "../../helpers/worker/sites.ts";

/** The sales coach's edge tools through the real route (seed 002). */
const tool = (token: string, name: string, args: unknown) => call(`/v1/tools/${name}`, { method: "POST", headers: auth(token), json: { arguments: args } });

describe("sales tools on the worker", () => {
  it("price_calculator answers an exact quote, and the executor runs what the rep reads out through compliance", async () => {
    const s = await openSession("sales-coach");
    const { res } = await tool(s.token, "price_calculator", {
      items: [{ name: "Barrier cream, guaranteed lowest price", unitPrice: "19.99", quantity: 120 }],
      tiers: [{ minQuantity: 100, discountPercent: "12.5" }],
    });
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as any;
    expect(result.total).toBe("2098.95");
    expect(result.compliance.checked).toBe(true);
    expect(result.compliance.violations.map((v: any) => v.rule)).toEqual(["guaranteed", "lowest price"]);
    expect(result.say).not.toMatch(/lowest price|guaranteed/i);
    expect(result.say).toContain("2098.95");
  });

  it("compliance_check applies the tenant's own rules from the site config", async () => {
    const siteKey = await putSite({ safety: { compliance: { rules: [{ phrase: "dermatologist recommended", rewrite: "used in dermatology clinics", kind: "claim" }] } } });
    const s = await openSession("sales-coach", {}, { siteKey });
    const { res } = await tool(s.token, "compliance_check", { text: "Dermatologist recommended and it cures dryness." });
    const { result } = (await res.json()) as any;
    expect(result.violations.map((v: any) => v.rule)).toEqual(["dermatologist recommended", "cure"]);
    expect(result.rewritten).toBe("used in dermatology clinics and it helps care for dryness.");
  });

  it("answers 400 with the reason for bad arguments, and refuses a tool the agent does not have", async () => {
    const s = await openSession("sales-coach");
    const bad = await tool(s.token, "price_calculator", { items: [{ name: "x", unitPrice: 19.99, quantity: 1 }] });
    expect(bad.res.status).toBe(400);
    expect(((await bad.res.json()) as any).error.message).toMatch(/unitPrice/);
    const derm = await openSession("derm-consult");
    expect((await tool(derm.token, "price_calculator", { items: [{ name: "x", unitPrice: "1", quantity: 1 }] })).res.status).toBe(403);
  });
});
