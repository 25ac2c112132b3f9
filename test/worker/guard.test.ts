import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import { auth, call, openSession, readSse } from "../helpers/worker/client.ts";
import { delta, sseResponse } from "../helpers/worker/provider-sse.ts";
import { providerSite, putSite } from "../helpers/worker/sites.ts";
import { guardChatRequest } from "../../worker/guard/chat-guard.ts";
import { sessionRoom } from "../../worker/objects.ts";

/**
 * The emergency guard through the real chat route: the card is stored and streamed
 * before any model text, whatever the model says; the model is told; the owner sees it in the trace.
 */
const CALM = "I have this pressure in my chest, should I worry?";

function chat(token: string, json: unknown, headers: Record<string, string> = {}, vars = {}) {
  return call("/v1/chat/completions", { method: "POST", json, headers: { ...auth(token), ...headers } }, vars);
}

const stateOf = (sessionId: string) => sessionRoom(env, sessionId).getState();

afterEach(() => vi.restoreAllMocks());

describe("emergency guard on the chat route", () => {
  it(
    "streams the escalation before any model text, even when the model says " + "there is nothing to worry about",
    async () => {
      const s = await openSession("medical-qa");
      const { res, done } = await chat(
        s.token,
        { stream: true, messages: [{ id: "u1", role: "user", content: CALM }], parley: { replyId: "r1" } },
        { "accept-language": "en-US" },
      );
      const events = await readSse(res);
      await done();
      const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
      // The first event is Parley's, with no choices: an OpenAI client skips it.
      expect(chunks[0].choices).toEqual([]);
      expect(chunks[0].object).toBe("chat.completion.chunk");
      const event = chunks[0].parley.event;
      expect(event.type).toBe(EVENT_TYPES.escalationRaised);
      expect(event.data.escalation).toMatchObject({
        messageId: "u1",
        category: "cardiac",
        variant: "emergency",
        source: "rules",
      });
      expect(event.data.escalation.contacts[0].number).toMatch(/^(911|999|112|120)$/);
      const text = chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("");
      expect(text).toContain("nothing to worry about");

      const state = await stateOf(s.sessionId);
      expect(state.escalations).toHaveLength(1);
      expect(state.escalations[0].category).toBe("cardiac");
      // The visitor's message is stored first, then the escalation; the owner's trace has the guard's step.
      expect(state.messages.map((m) => m.id)).toEqual(["u1", "r1"]);
      expect(state.trace.find((t) => t.kind === "guard")).toMatchObject({
        name: "emergency",
        detail: { category: "cardiac", messageId: "u1" },
      });
    },
  );

  it(
    "answers Chinese with the card in Chinese; the crisis variant gives the " +
      "crisis line first and no first-aid steps",
    async () => {
      const s = await openSession("medical-qa");
      const { res, done } = await chat(
        s.token,
        { stream: true, messages: [{ id: "z1", role: "user", content: "我真的不想活了，每天都好累" }] },
        { "accept-language": "zh-CN,zh;q=0.9" },
      );
      const first = JSON.parse((await readSse(res))[0]);
      await done();
      const e = first.parley.event.data.escalation;
      expect(e).toMatchObject({ category: "self_harm", variant: "crisis" });
      expect(e.title).toMatch(/[\u4e00-\u9fff]/);
      expect(e.body).not.toMatch(/按压|心肺复苏|催吐/);
      // The crisis line leads (988, 116 123 or 12356 by region), an emergency number follows.
      expect(["988", "116 123", "12356"]).toContain(e.contacts[0].number);
      expect(e.contacts.length).toBeGreaterThan(1);
    },
  );

  it("tells the model with the system prompt and still calls it", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockResolvedValue(sseResponse([delta("Hel"), delta("lo", "stop")]));
    // The site's provider (a profile), answered by the stub above.
    const s = await openSession("medical-qa", {}, { siteKey: await providerSite("https://provider.test/v1") });
    const { res, done } = await chat(s.token, {
      stream: true,
      messages: [{ role: "user", content: "my husband's face is drooping and he is slurring his words" }],
      parley: {},
    });
    const events = await readSse(res);
    await done();
    expect(JSON.parse(events[0]).parley.event.data.escalation.category).toBe("stroke");
    expect(
      events
        .slice(1, -1)
        .map((e) => JSON.parse(e).choices[0].delta.content)
        .join(""),
    ).toBe("Hello");
    const body = JSON.parse(String(spy.mock.calls[0][1]?.body));
    expect(body.messages[0].role).toBe("system");
    expect(body.messages[0].content).toContain("SAFETY NOTICE");
    expect(body.messages[0].content).toContain("stroke");
  });

  it("puts the escalation in a completion that is not streamed", async () => {
    const s = await openSession("medical-qa");
    const { res, done } = await chat(s.token, {
      messages: [{ role: "user", content: "my son swallowed a button battery" }],
    });
    const json = (await res.json()) as any;
    await done();
    expect(json.parley.event.data.escalation.category).toBe("poisoning");
    expect(json.choices[0].message).toBeDefined();
  });

  it.each([
    ["a negation", "No chest pain, just a dry cough for two days"],
    ["a past event", "My father had a stroke in 2010, is it hereditary?"],
    ["a look-alike", "Is it safe to keep medicines in a chest of drawers in the bathroom?"],
  ])("does not escalate %s", async (_label, content) => {
    const s = await openSession("medical-qa");
    const { res, done } = await chat(s.token, { stream: true, messages: [{ role: "user", content }] });
    const events = await readSse(res);
    await done();
    expect(events.some((e) => e.includes('"parley"'))).toBe(false);
    expect((await stateOf(s.sessionId)).escalations).toEqual([]);
  });

  it("does nothing for an agent without the guard", async () => {
    const s = await openSession("sales-coach");
    const { res, done } = await chat(s.token, {
      stream: true,
      messages: [{ role: "user", content: "my client says he has crushing chest pain" }],
    });
    const events = await readSse(res);
    await done();
    expect(events.some((e) => e.includes('"parley"'))).toBe(false);
  });

  it("uses the site's own numbers for the visitor's region", async () => {
    const siteKey = await putSite({
      safety: {
        contacts: {
          UK: [
            {
              label: { en: "Clinic urgent line", "zh-CN": "诊所紧急电话" },
              number: "020 7946 0000",
              kind: "emergency",
            },
          ],
        },
      },
    });
    const s = await openSession("medical-qa", {}, { siteKey });
    const { res, done } = await chat(
      s.token,
      { stream: true, messages: [{ role: "user", content: "I can't breathe properly and my lips are going blue" }] },
      { "accept-language": "en-GB" },
    );
    const e = JSON.parse((await readSse(res))[0]).parley.event.data.escalation;
    await done();
    // No network country in tests: the browser's language region (en-GB) decides.
    expect(e.region).toBe("UK");
    expect(e.contacts).toEqual([{ label: "Clinic urgent line", number: "020 7946 0000" }]);
    expect(e.category).toBe("breathing");
  });
});

describe("the visitor's region on the local demo", () => {
  const stroke = { stream: true, messages: [{ role: "user", content: "我爸突然嘴歪了，说话也含糊不清" }] };
  /** The chat route with the network country local wrangler dev makes up (US) and a client address. */
  async function regionOf(ip: string | null, acceptLanguage: string, vars = {}) {
    const s = await openSession("medical-qa", vars);
    const headers = { ...auth(s.token), "accept-language": acceptLanguage, ...(ip ? { "cf-connecting-ip": ip } : {}) };
    const init = { method: "POST", json: stroke, headers, cf: { country: "US" } } as RequestInit & { json: unknown };
    const { res, done } = await call("/v1/chat/completions", init, vars);
    const escalation = JSON.parse((await readSse(res))[0]).parley.event.data.escalation;
    await done();
    return { region: escalation.region, numbers: escalation.contacts.map((c: { number: string }) => c.number) };
  }

  it("in demo mode a loopback request's made-up country gives way to the visitor's locale", async () => {
    expect(await regionOf("127.0.0.1", "zh-CN,zh;q=0.9")).toEqual({ region: "CN", numbers: ["120"] });
    expect(await regionOf("::1", "zh")).toEqual({ region: "CN", numbers: ["120"] });
    expect(await regionOf("127.0.0.1", "en-GB,en;q=0.8")).toMatchObject({ region: "UK" });
  });

  it("keeps the network's country for a visitor elsewhere, and always in a deployed worker", async () => {
    expect(await regionOf("203.0.113.9", "zh-CN")).toMatchObject({ region: "US" });
    // A deployed worker (no demo hooks on its env): the network's country stands even for loopback.
    const agent = AgentConfig.parse({
      id: "a",
      name: { en: "a", "zh-CN": "a" },
      description: { en: "", "zh-CN": "" },
      greeting: { en: "", "zh-CN": "" },
      systemPrompt: "x",
      model: "m",
      guards: { emergency: true },
    });
    const site = SiteConfig.parse({ siteKey: "site-key-123", tenantId: "t", allowedOrigins: [], agents: ["a"] });
    const headers = { "cf-connecting-ip": "127.0.0.1", "accept-language": "zh-CN" };
    const request = new Request("https://w.example/v1/chat/completions", { headers, cf: { country: "US" } });
    const req = { messages: [{ role: "user" as const, content: stroke.messages[0].content }] };
    const verdict = await guardChatRequest({ ...env, DEMO_MODE: "" }, request, site, agent, req);
    expect(verdict.escalation).toMatchObject({ region: "US" });
  });
});

describe("the guard's classifier layer (fake provider's moderation route)", () => {
  const classifierSite = (timeoutMs = 1500) =>
    putSite({ safety: { classifier: { kind: "moderation", baseUrl: inject("upstreamUrl"), timeoutMs } } });

  it("escalates what the rules miss when the classifier flags it", async () => {
    const siteKey = await classifierSite();
    const s = await openSession("medical-qa", {}, { siteKey });
    const content = "Everything is arranged now, the cat goes to my sister on friday";
    const { res, done } = await chat(s.token, { stream: true, messages: [{ role: "user", content }] });
    const e = JSON.parse((await readSse(res))[0]).parley.event.data.escalation;
    await done();
    expect(e).toMatchObject({ category: "self_harm", variant: "crisis", source: "classifier" });
  });

  it("keeps the rules' verdict when the classifier times out, and traces the failure", async () => {
    const siteKey = await classifierSite(200);
    const s = await openSession("medical-qa", {}, { siteKey });
    const { res, done } = await chat(s.token, {
      stream: true,
      messages: [{ role: "user", content: "How much water should I drink? [slow moderation]" }],
    });
    const events = await readSse(res);
    await done();
    expect(events.at(-1)).toBe("[DONE]");
    expect(events.some((e) => e.includes('"parley"'))).toBe(false);
    const trace = (await stateOf(s.sessionId)).trace.find((t) => t.name === "classifier");
    expect(trace).toMatchObject({ kind: "guard", ok: false, detail: { error: "timed out after 200 ms" } });
  });
});

describe("guard config validation", () => {
  it("rejects a malformed guard or safety config", () => {
    const agent = {
      id: "a",
      name: { en: "a", "zh-CN": "a" },
      description: { en: "", "zh-CN": "" },
      greeting: { en: "", "zh-CN": "" },
      systemPrompt: "x",
      model: "m",
    };
    expect(AgentConfig.parse(agent).guards).toEqual({ emergency: false, advice: false, compliance: false });
    expect(AgentConfig.safeParse({ ...agent, guards: { emergency: "yes" } }).success).toBe(false);
    const site = { siteKey: "site-key-123", tenantId: "t", allowedOrigins: [], agents: [] };
    expect(SiteConfig.parse(site).safety).toEqual({});
    expect(
      SiteConfig.safeParse({ ...site, safety: { classifier: { kind: "moderation", timeoutMs: 60_000 } } }).success,
    ).toBe(false);
    expect(SiteConfig.safeParse({ ...site, safety: { defaultRegion: "Mars" } }).success).toBe(false);
    expect(SiteConfig.safeParse({ ...site, safety: { contacts: { UK: [] } } }).success).toBe(false);
  });
});
