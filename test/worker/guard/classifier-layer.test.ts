import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { GuardClassifier } from "../../../shared/config/guard-config.ts";
import { auth, call, openSession, readSse } from "../../helpers/worker/client.ts";
import { PROVIDER_URL, scriptedProvider } from "../../helpers/worker/scripted-provider.ts";
import { scriptedSite } from "../../helpers/worker/sites.ts";
import { sessionRoom } from "../../../worker/objects.ts";

/**
 * The guard's classifier layer: asked in parallel with the provider's request, it holds the
 * visible stream until it answers or the site's timeout passes; a timeout or a failure leaves the
 * rules' verdict, and the trace says which layer decided.
 */
afterEach(() => vi.restoreAllMocks());

/** Nothing the rules recognise; the scripted classifier flags it all the same when told to. */
const QUIET = "Which herbal tea helps me sleep better?";
const flagged =
  (delayMs: number, on = true) =>
  () => ({ flagged: on ? ["self-harm/intent"] : [], delayMs });

const siteWith = (timeoutMs?: number) =>
  scriptedSite({
    safety: { classifier: { kind: "moderation", baseUrl: PROVIDER_URL, ...(timeoutMs ? { timeoutMs } : {}) } },
  });

async function turn(siteKey: string, content: string, stream = true) {
  const s = await openSession("medical-qa", {}, { siteKey });
  const sent = Date.now();
  const json = { stream, messages: [{ id: "m1", role: "user", content }], parley: {} };
  const { res, done } = await call("/v1/chat/completions", { method: "POST", json, headers: auth(s.token) });
  const answeredMs = Date.now() - sent;
  const body = stream ? await readSse(res) : [JSON.stringify(await res.json())];
  await done();
  const chunks = body.filter((e) => e !== "[DONE]").map((e) => JSON.parse(e));
  return { chunks, answeredMs, state: await sessionRoom(env, s.sessionId).getState() };
}

describe("the classifier layer", () => {
  it("is asked with the provider's request, not before it, and its verdict comes before any text", async () => {
    const provider = scriptedProvider(() => ({ content: "Chamomile may help." }), flagged(400));
    const { chunks, answeredMs, state } = await turn(await siteWith(), QUIET);
    const moderation = provider.requests.find((r) => r.path === "/moderations")!;
    const chat = provider.chats()[0];
    // The provider's request left while the classifier was still thinking (it answers after 400 ms).
    expect(Math.abs(chat.at - moderation.at)).toBeLessThan(200);
    // The stream was held for the classifier: the card is the first event.
    expect(answeredMs).toBeGreaterThanOrEqual(350);
    expect(chunks[0].parley.event.data.escalation).toMatchObject({
      source: "classifier",
      category: "self_harm",
      variant: "crisis",
    });
    expect(state.trace.find((t) => t.name === "emergency")?.detail).toMatchObject({ source: "classifier" });
    const step = state.trace.find((t) => t.name === "classifier");
    expect(step).toMatchObject({ ok: true, detail: { category: "self_harm" } });
    expect(step?.detail?.heldMs).toBeGreaterThan(100);
  });

  it("times out at the site's timeout: the rules' verdict (none) stands, and the trace says so", async () => {
    const provider = scriptedProvider(() => ({ content: "Chamomile may help." }), flagged(3000));
    const { chunks, answeredMs, state } = await turn(await siteWith(200), QUIET);
    expect(answeredMs).toBeLessThan(1500);
    expect(chunks.some((c) => c.parley)).toBe(false);
    expect(state.escalations).toEqual([]);
    expect(state.trace.find((t) => t.name === "classifier")).toMatchObject({
      kind: "guard",
      ok: false,
      detail: { error: "timed out after 200 ms" },
    });
    expect(provider.chats()).toHaveLength(1);
  });

  it("is not asked when the rules decided; their escalation stands", async () => {
    const provider = scriptedProvider(() => ({ content: "ok" }), flagged(0, false));
    const { chunks, state } = await turn(await siteWith(), "I have crushing chest pain spreading to my left arm");
    expect(provider.requests.some((r) => r.path === "/moderations")).toBe(false);
    expect(chunks[0].parley.event.data.escalation.source).toBe("rules");
    expect(state.trace.find((t) => t.name === "emergency")?.detail).toMatchObject({ source: "rules" });
  });

  it("holds a reply that is not streamed the same way, asked with the provider's request", async () => {
    const provider = scriptedProvider(() => ({ content: "Chamomile may help." }), flagged(300));
    const { chunks } = await turn(await siteWith(), QUIET, false);
    const moderation = provider.requests.find((r) => r.path === "/moderations")!;
    expect(Math.abs(provider.chats()[0].at - moderation.at)).toBeLessThan(200);
    expect(chunks[0].parley.event.data.escalation).toMatchObject({ source: "classifier" });
  });

  it("waits 800 ms by default", () => {
    expect(GuardClassifier.parse({ kind: "moderation" }).timeoutMs).toBe(800);
  });
});
