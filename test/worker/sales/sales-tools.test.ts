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
  it(
    "checks the coach's finished reply and puts a banned claim in the owner's " + "trace, without holding the text",
    async () => {
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
    },
  );

  it("flags a scripted banned claim in the stored reply with span and rewrite; the rep gets the card", async () => {
    const provider = { LLM_BASE_URL: "https://provider.test/v1", LLM_API_KEY: "sk-test" };
    const said = "Tell the clinic it is guaranteed to cure eczema.";
    vi.spyOn(globalThis, "fetch").mockResolvedValue(
      sseResponse([delta("Final Answer: Tell the clinic it is "), delta("guaranteed to cure eczema.", "stop")]),
    );
    const s = await openSession("sales-coach", provider);
    const { res, done } = await call(
      "/v1/chat/completions",
      {
        method: "POST",
        headers: auth(s.token),
        json: { stream: true, messages: [{ role: "user", content: "pitch?" }], parley: { replyId: "r2" } },
      },
      provider,
    );
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
      evidence: [
        `"is guaranteed" (${said.indexOf("is guaranteed")}–${said.indexOf("is guaranteed") + 13}) → "is likely"`,
        `"cure" (${said.indexOf("cure")}–${said.indexOf("cure") + 4}) → "help soothe"`,
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
