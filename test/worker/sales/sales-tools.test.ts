import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { auth, call, openSession, readSse } from "../../helpers/worker/client.ts";
import { delta, sseResponse } from "../../helpers/worker/provider-sse.ts";
import { providerSite, putSite } from "../../helpers/worker/sites.ts";
import { checkCompliance } from "../../../worker/sales/compliance.ts";
import { sessionRoom } from "../../../worker/objects.ts";

/** The sales coach's edge tools through the real route. */
const tool = (token: string, name: string, args: unknown, callId?: string) =>
  call(`/v1/tools/${name}`, { method: "POST", headers: auth(token), json: { arguments: args, callId } });

afterEach(() => vi.restoreAllMocks());

/** A copy of the demo site whose provider is a profile, answered by each test's stub. */
const stubbedSite = providerSite("https://provider.test/v1");

describe("sales tools on the worker", () => {
  it(
    "checks the coach's finished reply and puts a banned claim in the owner's " + "trace, without holding the text",
    async () => {
      vi.spyOn(globalThis, "fetch").mockResolvedValue(
        sseResponse([
          delta("Final Answer: Tell them it cures eczema "),
          delta("and the price will never go up.", "stop"),
        ]),
      );
      const s = await openSession("sales-coach", {}, { siteKey: await stubbedSite });
      const { res, done } = await call("/v1/chat/completions", {
        method: "POST",
        headers: auth(s.token),
        json: {
          stream: true,
          messages: [{ role: "user", content: "what do I tell the clinic?" }],
          parley: { replyId: "r1" },
        },
      });
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
    },
  );

  it("flags a scripted banned claim in the stored reply with span and rewrite; the rep gets the card", async () => {
    const said = "Tell the clinic it is guaranteed to cure eczema.";
    vi.spyOn(globalThis, "fetch").mockResolvedValue(
      sseResponse([delta("Final Answer: Tell the clinic it is "), delta("guaranteed to cure eczema.", "stop")]),
    );
    const s = await openSession("sales-coach", {}, { siteKey: await stubbedSite });
    const { res, done } = await call("/v1/chat/completions", {
      method: "POST",
      headers: auth(s.token),
      json: { stream: true, messages: [{ role: "user", content: "pitch?" }], parley: { replyId: "r2" } },
    });
    await readSse(res);
    await done();
    const state = await sessionRoom(env, s.sessionId).getState();
    const step = state.trace.find((t) => t.name === "compliance");
    const full = `Final Answer: ${said}`;
    const at = (w: string) => `${full.indexOf(w)}-${full.indexOf(w) + w.length}`;
    expect(step).toMatchObject({
      ok: false,
      detail: {
        replyId: "r2",
        spans: `${at("is guaranteed")},${at("cure")}`,
        rewrite: "Final Answer: Tell the clinic it is likely to help soothe eczema.",
      },
    });
    const card = state.advice.find((a) => a.id === "r2");
    expect(card).toMatchObject({
      messageId: "r2",
      category: "compliance",
      severity: "caution",
      content: "Say instead: Tell the clinic it is likely to help soothe eczema.",
      // Each flagged span in its sentence, the compliant rewrite beside it.
      evidence: [
        "Tell the clinic it «is guaranteed» to cure eczema. → «is likely»",
        "Tell the clinic it is guaranteed to «cure» eczema. → «help soothe»",
      ],
    });

    // The widget's executor checks the finished reply: the same card comes back for the rep.
    const checked = await tool(s.token, "compliance_check", { text: full, replyId: "r2" });
    const body = (await checked.res.json()) as any;
    expect(body.result.compliant).toBe(false);
    expect(body.events).toHaveLength(1);
    expect(body.events[0].data.advice).toEqual({ ...card, at: body.events[0].data.advice.at });
    // Without a reply's id (the model's own call) no card comes back.
    expect(
      ((await (await tool(s.token, "compliance_check", { text: full })).res.json()) as any).events,
    ).toBeUndefined();
  });

  it(
    "price_calculator answers an exact quote, and the executor runs what the " + "rep reads out through compliance",
    async () => {
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
    },
  );

  it("a quote becomes the rep's card only from the exact text that passed compliance_check", async () => {
    const s = await openSession("sales-coach");
    const quote = {
      items: [{ name: "Barrier cream, guaranteed lowest price", unitPrice: "19.99", quantity: 120 }],
      tiers: [{ minQuantity: 100, discountPercent: "12.5" }],
    };
    // Without the call's id (a caller that is not the widget's executor) there is no card.
    const bare = (await (await tool(s.token, "price_calculator", quote)).res.json()) as any;
    expect(bare.events).toBeUndefined();

    const body = (await (await tool(s.token, "price_calculator", quote, "call_q1")).res.json()) as any;
    expect(body.result.card).toBe("shown to the rep");
    const card = body.events[0].data.advice;
    expect(card).toMatchObject({ id: "call_q1", category: "quote", severity: "info", title: "Quote: 2098.95" });
    expect(card.content).toBe(body.result.say);
    expect(card.content).not.toMatch(/guaranteed|lowest price/i);
    expect(checkCompliance(card.content).compliant).toBe(true);
    // The owner sees the same card in the session.
    const stored = (await sessionRoom(env, s.sessionId).getState()).advice.find((a) => a.id === "call_q1");
    expect(stored).toEqual(card);
  });

  it("no card when even the rewrite of the quote breaks the tenant's rules", async () => {
    const siteKey = await putSite({
      safety: {
        compliance: { rules: [{ phrase: "best deal", rewrite: "guaranteed lowest price", kind: "price_promise" }] },
      },
    });
    const s = await openSession("sales-coach", {}, { siteKey });
    const body = (await (
      await tool(s.token, "price_calculator", { items: [{ name: "best deal", unitPrice: "1", quantity: 1 }] }, "c2")
    ).res.json()) as any;
    expect(body.result.total).toBe("1.00");
    expect(body.result.card).toMatch(/not shown/);
    // Nor does the model get a sentence to give the rep.
    expect(body.result.say).toBeNull();
    expect(body.events).toBeUndefined();
    expect((await sessionRoom(env, s.sessionId).getState()).advice).toEqual([]);
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
    expect(result.rewritten).toBe("Used in dermatology clinics and it helps soothe dryness.");
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
