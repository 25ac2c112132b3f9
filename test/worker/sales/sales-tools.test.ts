import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { auth, call, openSession, readSse } from "../../helpers/worker/client.ts";
import { delta, sseResponse } from "../../helpers/worker/provider-sse.ts";
import { sessionRoom } from "../../../worker/session/session-stub.ts";
import { putSite } from "../../helpers/worker/sites.ts";

/** The sales coach's edge tools through the real route (seed 002). */
const tool = (token: string, name: string, args: unknown) =>
  call(`/v1/tools/${name}`, { method: "POST", headers: auth(token), json: { arguments: args } });

afterEach(() => vi.restoreAllMocks());

describe("sales tools on the worker", () => {
  it("checks the coach's finished reply and puts a banned claim in the owner's trace, without holding the text", async () => {
    const provider = { LLM_BASE_URL: "https://provider.test/v1", LLM_API_KEY: "sk-test" };
    vi.spyOn(globalThis, "fetch").mockResolvedValue(
      sseResponse([
        delta("Final Answer: Tell them it cures eczema "),
        delta("and the price will never go up.", "stop"),
      ]),
    );
    const s = await openSession("sales-coach", provider);
    const { res, done } = await call(
      "/v1/chat/completions",
      {
        method: "POST",
        headers: auth(s.token),
        json: {
          stream: true,
          messages: [{ role: "user", content: "what do I tell the clinic?" }],
          parley: { replyId: "r1" },
        },
      },
      provider,
    );
    const events = await readSse(res);
    await done();
    expect(
      events
        .slice(0, -1)
        .map((e) => JSON.parse(e).choices[0].delta.content)
        .join(""),
    ).toContain("cures eczema");
    const step = (await sessionRoom(env, s.sessionId).getState()).trace.find((t) => t.name === "compliance");
    expect(step).toMatchObject({
      kind: "guard",
      ok: false,
      detail: { replyId: "r1", violations: "claim: cures; price_promise: the price will never go up" },
    });
  });

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
    const siteKey = await putSite({
      safety: {
        compliance: {
          rules: [{ phrase: "dermatologist recommended", rewrite: "used in dermatology clinics", kind: "claim" }],
        },
      },
    });
    const s = await openSession("sales-coach", {}, { siteKey });
    const { res } = await tool(s.token, "compliance_check", {
      text: "Dermatologist recommended and it cures dryness.",
    });
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
    expect(
      (await tool(derm.token, "price_calculator", { items: [{ name: "x", unitPrice: "1", quantity: 1 }] })).res.status,
    ).toBe(403);
  });
});
