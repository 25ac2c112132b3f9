import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { agreeToPhotos, auth, call, openSession, readSse } from "../helpers/worker/client.ts";
import { putSite } from "../helpers/worker/sites.ts";
import { bareJpeg } from "../helpers/photo-bytes.ts";
import { delta, sseResponse } from "../helpers/worker/provider-sse.ts";
import { photoPart } from "../../shared/chat/photo-ref.ts";
import type { Env } from "../../worker/env.ts";
import { sessionRoom } from "../../worker/objects.ts";

const json = async (r: Response) => (await r.json()) as any;
afterEach(() => vi.restoreAllMocks());

async function photoTurn(vars: Partial<Env> = {}, siteKey?: string) {
  const s = await openSession("derm-consult", vars, siteKey ? { siteKey } : {});
  await agreeToPhotos(s, vars);
  const up = await call(
    `/v1/sessions/${s.sessionId}/photos`,
    { method: "POST", body: bareJpeg(), headers: auth(s.token) },
    vars,
  );
  const { id } = await json(up.res);
  return { s, id };
}

const analyze = (s: { token: string }, vars: Partial<Env> = {}) =>
  call(
    "/v1/tools/analyze_skin_image",
    {
      method: "POST",
      json: { arguments: { context: "on my arm, a week" }, callId: "call_photo_1" },
      headers: auth(s.token),
    },
    vars,
  );

describe("analyze_skin_image", () => {
  it("offline: the demo model calls it for a photo; its findings become an advice card with the photo", async () => {
    const { s, id } = await photoTurn();
    const c = await call("/v1/chat/completions", {
      method: "POST",
      json: {
        stream: true,
        messages: [{ id: "q1", role: "user", content: [photoPart(id)] }],
        parley: { replyId: "r1" },
      },
      headers: auth(s.token),
    });
    const chunks = (await readSse(c.res)).filter((e) => e !== "[DONE]").map((e) => JSON.parse(e));
    await c.done();
    const calls = chunks.flatMap((ch) => ch.choices?.[0]?.delta?.tool_calls ?? []);
    expect(calls[0].function.name).toBe("analyze_skin_image");

    const { res, done } = await analyze(s);
    expect(res.status).toBe(200);
    const body = await json(res);
    await done();
    expect(body.result.observations.length).toBeGreaterThan(0);
    expect(body.result.seeDermatologist).toBe("routine");
    const card = body.events.find((e: any) => e.type === "advice.recorded").data.advice;
    expect(card).toMatchObject({ id: "call_photo_1", photos: [id], severity: "info", title: "What your photo shows" });
    expect(card.evidence.length).toBeGreaterThan(0);
    expect(card.content).toContain("dermatologist");
    const state = await sessionRoom(env, s.sessionId).getState();
    expect(state.advice.map((a) => a.id)).toContain("call_photo_1");
  });

  it("asks for a photo when the visitor has sent none", async () => {
    const s = await openSession("derm-consult");
    const { res } = await analyze(s);
    expect((await json(res)).result.error).toContain("photo");
  });

  it(
    "sends the vision model the stored photo with a forced report_skin_findings " +
      "call; red flags raise the emergency card",
    async () => {
      const vars = { LLM_BASE_URL: "https://provider.test/v1", LLM_API_KEY: "sk-test-secret" };
      const siteKey = await putSite({
        providers: [
          {
            id: "main",
            baseUrl: "https://provider.test/v1",
            keyEnv: "LLM_API_KEY",
            models: { "gpt-4o-mini": { vision: true } },
          },
        ],
      });
      const { s, id } = await photoTurn(vars, siteKey);
      // The chat turn that stores the photo's message.
      const chatSpy = vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(sseResponse([delta("Let me look.", "stop")]));
      const c = await call(
        "/v1/chat/completions",
        {
          method: "POST",
          json: { stream: true, messages: [{ id: "q1", role: "user", content: [photoPart(id)] }] },
          headers: auth(s.token),
        },
        vars,
      );
      await readSse(c.res);
      await c.done();
      const findings = {
        observations: ["Swollen red lips and face"],
        possibleConditions: [{ name: "Allergic reaction", likelihood: "possible", why: "swelling" }],
        redFlags: ["facial swelling with trouble breathing"],
        seeDermatologist: "urgent",
        summary: "The face looks swollen.",
      };
      chatSpy.mockResolvedValueOnce(
        Response.json({
          id: "x",
          object: "chat.completion",
          model: "gpt-4o-mini",
          choices: [
            {
              index: 0,
              finish_reason: "tool_calls",
              message: {
                role: "assistant",
                content: null,
                tool_calls: [
                  {
                    id: "f1",
                    type: "function",
                    function: { name: "report_skin_findings", arguments: JSON.stringify(findings) },
                  },
                ],
              },
            },
          ],
        }),
      );
      const { res, done } = await analyze(s, vars);
      const body = await json(res);
      await done();
      expect(res.status).toBe(200);
      const sent = JSON.parse((chatSpy.mock.calls[1] as [string, RequestInit])[1].body as string);
      expect(sent.tool_choice).toEqual({ type: "function", function: { name: "report_skin_findings" } });
      expect(sent.tools[0].function.parameters.additionalProperties).toBe(false);
      expect(sent.messages[1].content[1].image_url.url).toMatch(/^data:image\/jpeg;base64,/);
      const types = body.events.map((e: any) => e.type);
      expect(types).toContain("advice.recorded");
      expect(types).toContain("escalation.raised");
      const card = body.events.find((e: any) => e.type === "advice.recorded").data.advice;
      expect(card.severity).toBe("caution");
      expect(card.content).toContain("See a doctor today");
    },
  );
});
