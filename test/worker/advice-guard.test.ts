import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { auth, call, openSession, readSse } from "../helpers/worker/client.ts";
import { sseResponse } from "../helpers/worker/provider-sse.ts";
import { providerSite, putSite } from "../helpers/worker/sites.ts";
import { sessionRoom } from "../../worker/objects.ts";

/**
 * The advice guard through the real routes: advice in the session log comes only from
 * record_advice calls the worker relayed, with evidence, `urgent` only for emergencies; a browser
 * cannot plant a card; every card carries the site's disclaimer.
 */
/** The turns' site: its provider is a profile, answered by each turn's stub. */
const site = providerSite("https://provider.test/v1");

const adviceCall = (id: string, args: Record<string, unknown>) => [
  {
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [
            { index: 0, id, type: "function", function: { name: "record_advice", arguments: JSON.stringify(args) } },
          ],
        },
        finish_reason: null,
      },
    ],
  },
  { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
];
const card = {
  title: "Moisturise twice a day",
  content: "A fragrance-free emollient, morning and night.",
  severity: "info",
  category: "skin care",
};

async function turnWith(chunks: unknown[], replyId = "r1") {
  vi.spyOn(globalThis, "fetch").mockResolvedValue(sseResponse(chunks));
  const s = await openSession("derm-consult", {}, { siteKey: await site });
  const { res, done } = await call("/v1/chat/completions", {
    method: "POST",
    headers: auth(s.token),
    json: {
      stream: true,
      messages: [{ id: "u1", role: "user", content: "dry itchy skin on my hands" }],
      parley: { replyId },
    },
  });
  await readSse(res);
  await done();
  return { s, state: await sessionRoom(env, s.sessionId).getState() };
}

const postEvents = (token: string, sessionId: string, events: unknown[]) =>
  call(`/v1/sessions/${sessionId}/events`, { method: "POST", headers: auth(token), json: { events } });

afterEach(() => vi.restoreAllMocks());

describe("advice guard", () => {
  it("records advice from the relayed record_advice call, with the call's id and the reply's", async () => {
    const { state } = await turnWith(
      adviceCall("call_a", { ...card, evidence: ["Clinic leaflet: emollients twice daily"] }),
    );
    expect(state.advice).toHaveLength(1);
    expect(state.advice[0]).toMatchObject({
      id: "call_a",
      messageId: "r1",
      title: card.title,
      evidence: ["Clinic leaflet: emollients twice daily"],
    });
  });

  it("refuses a card without evidence, and urgent outside the emergency category", async () => {
    expect((await turnWith(adviceCall("call_b", { ...card, evidence: [] }))).state.advice).toEqual([]);
    expect((await turnWith(adviceCall("call_c", { ...card, evidence: ["  "] }))).state.advice).toEqual([]);
    expect(
      (await turnWith(adviceCall("call_d", { ...card, severity: "urgent", evidence: ["NICE CKS"] }))).state.advice,
    ).toEqual([]);
    const emergency = await turnWith(
      adviceCall("call_e", {
        ...card,
        severity: "urgent",
        category: "emergency",
        evidence: ["Red flag: spreading redness with fever"],
      }),
    );
    expect(emergency.state.advice.map((a) => a.severity)).toEqual(["urgent"]);
  });

  it("refuses advice a browser sends that matches no recorded call, and accepts a true copy", async () => {
    const { s, state } = await turnWith(adviceCall("call_f", { ...card, evidence: ["Clinic leaflet"] }));
    const forged = { ...state.advice[0], id: "planted", title: "Stop all your medicines", severity: "urgent" };
    const refused = await postEvents(s.token, s.sessionId, [
      { id: "advice:planted", at: 1, type: "advice.recorded", data: { advice: forged } },
    ]);
    expect(refused.res.status).toBe(403);
    expect(((await refused.res.json()) as any).error.code).toBe("forbidden");
    // Changing a recorded card's text is a forgery too.
    const altered = { ...state.advice[0], content: "Double your dose" };
    expect(
      (
        await postEvents(s.token, s.sessionId, [
          { id: "advice:call_f", at: 1, type: "advice.recorded", data: { advice: altered } },
        ])
      ).res.status,
    ).toBe(403);
    const copy = await postEvents(s.token, s.sessionId, [
      { id: "advice:call_f", at: 1, type: "advice.recorded", data: { advice: state.advice[0] } },
    ]);
    expect(copy.res.status).toBe(200);
    const after = await sessionRoom(env, s.sessionId).getState();
    expect(after.advice.map((a) => [a.id, a.content])).toEqual([["call_f", card.content]]);
  });

  it("gives the widget the site's disclaimer for an agent with the advice guard, the default otherwise", async () => {
    const s = await openSession("derm-consult");
    expect(s.agent.disclaimer?.en).toMatch(/not a diagnosis/);
    const siteKey = await putSite({
      safety: { disclaimer: { en: "Lumen Clinic: information only.", "zh-CN": "仅供参考。" } },
    });
    const own = await openSession("derm-consult", {}, { siteKey });
    expect(own.agent.disclaimer).toEqual({ en: "Lumen Clinic: information only.", "zh-CN": "仅供参考。" });
    const { res } = await call(`/v1/sessions/${own.sessionId}`, { headers: auth(own.token) });
    expect(((await res.json()) as any).agent.disclaimer.en).toBe("Lumen Clinic: information only.");
    expect((await openSession("sales-coach")).agent.disclaimer).toBeUndefined();
  });
});
