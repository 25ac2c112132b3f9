import { afterEach, describe, expect, it, vi } from "vitest";
import { delta, sseResponse } from "../helpers/worker/provider-sse.ts";
import { agreeToPhotos, auth, call, openSession, readSse } from "../helpers/worker/client.ts";
import { putSite } from "../helpers/worker/sites.ts";
import { bareJpeg } from "../helpers/photo-bytes.ts";
import { photoPart } from "../../shared/chat/photo-ref.ts";
import { env } from "cloudflare:workers";
import { sessionRoom } from "../../worker/objects.ts";

const json = async (r: Response) => (await r.json()) as any;
afterEach(() => vi.restoreAllMocks());

const PROVIDER = { LLM_BASE_URL: "https://provider.test/v1", LLM_API_KEY: "sk-test-secret" };
const profile = (vision: boolean) => ({
  providers: [
    {
      id: "main",
      baseUrl: "https://provider.test/v1",
      keyEnv: "LLM_API_KEY",
      models: { "gpt-4o-mini": { vision } },
    },
  ],
});

async function sessionWithPhoto(vision: boolean) {
  const siteKey = await putSite(profile(vision));
  const s = await openSession("derm-consult", PROVIDER, { siteKey });
  return s;
}

const chat = (token: string, content: unknown, vars = PROVIDER) =>
  call(
    "/v1/chat/completions",
    { method: "POST", json: { stream: true, messages: [{ id: "q", role: "user", content }] }, headers: auth(token) },
    vars,
  );

describe("photos on the chat path", () => {
  it("hands the provider the stored photo as an image_url data URL; the session keeps the reference", async () => {
    const s = await sessionWithPhoto(true);
    expect(s.agent.photos?.enabled).toBe(true);
    await agreeToPhotos(s, PROVIDER);
    const up = await call(
      `/v1/sessions/${s.sessionId}/photos`,
      { method: "POST", body: bareJpeg(), headers: auth(s.token) },
      PROVIDER,
    );
    const { id } = await json(up.res);
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValue(sseResponse([delta("I see it.")]));
    const { res, done } = await chat(s.token, [{ type: "text", text: "Is this eczema?" }, photoPart(id)]);
    await readSse(res);
    await done();
    const sent = JSON.parse((fetchSpy.mock.calls[0] as [string, RequestInit])[1].body as string);
    const dataUrl = "data:image/jpeg;base64," + btoa(String.fromCharCode(...bareJpeg()));
    expect(sent.messages[1].content).toEqual([
      { type: "text", text: "Is this eczema?" },
      { type: "image_url", image_url: { url: dataUrl, detail: "high" } },
    ]);
    const state = await sessionRoom(env, s.sessionId).getState();
    expect(state.messages[0]).toMatchObject({ role: "user", content: "Is this eczema?", photos: [id] });
  });

  it("refuses image URLs a browser chose (data: or https:), before the provider is called", async () => {
    const s = await sessionWithPhoto(true);
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    for (const url of ["data:image/jpeg;base64,/9j/4AAQ", "https://example.com/a.jpg"]) {
      const { res } = await chat(s.token, [{ type: "image_url", image_url: { url } }]);
      expect(res.status).toBe(400);
      expect((await json(res)).error.message).toContain("parley-photo:");
    }
    const { res } = await chat(s.token, [photoPart("0".repeat(32))]);
    expect(res.status).toBe(400);
    expect((await json(res)).error.message).toContain("not in this session");
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("refuses uploads for a model without vision and hides photos from the widget", async () => {
    const s = await sessionWithPhoto(false);
    expect(s.agent.photos).toBeUndefined();
    const up = await call(
      `/v1/sessions/${s.sessionId}/photos`,
      { method: "POST", body: bareJpeg(), headers: auth(s.token) },
      PROVIDER,
    );
    expect(up.res.status).toBe(403);
    const body = await json(up.res);
    expect(body.error.code).toBe("photos_unavailable");
    expect(body.error.message).toContain("cannot read images");
  });
});
