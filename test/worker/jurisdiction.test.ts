import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import type { Env } from "../../worker/env.ts";
import { DEMO_ADMIN_KEY } from "../../worker/demo/index.ts";
import { agreeToPhotos, auth, call, openSession, readSse } from "../helpers/worker/client.ts";
import { pushToIndex } from "../helpers/worker/index-push.ts";
import { delta, sseResponse } from "../helpers/worker/provider-sse.ts";
import { putSite } from "../helpers/worker/sites.ts";
import { bareJpeg } from "../helpers/photo-bytes.ts";
import { sessionRoom, siteIndex, strategyDesk } from "../../worker/objects.ts";

/**
 * A site's jurisdiction: its conversations' objects are created through `SESSION_ROOM.jurisdiction(...)`,
 * found again from their ids by every route, their photos kept in that jurisdiction's bucket, the site's
 * index and desk placed with them. Local workerd implements no jurisdiction (its `jurisdiction()` throws
 * "not implemented"): the namespaces the app gets here record each `jurisdiction()` call and pass it on,
 * and the worker's local stand-in (JURISDICTION_STAND_IN, vitest.config.ts) keeps the jurisdiction's
 * objects apart from the default namespace's, which the tests read directly.
 */
/** The sites' provider (a profile), answered by chatTurn's stub. */
const providers = [{ id: "test", baseUrl: "https://provider.test/v1" }];
const json = async (r: Response) => (await r.json()) as any;

afterEach(() => vi.restoreAllMocks());

/** The namespace as the app gets it, with each `jurisdiction()` it is asked for written down. */
function recording<T extends Rpc.DurableObjectBranded | undefined>(
  ns: DurableObjectNamespace<T>,
  asked: string[],
): DurableObjectNamespace<T> {
  return new Proxy(ns, {
    get(target, prop) {
      if (prop === "jurisdiction")
        return (j: DurableObjectJurisdiction) => {
          asked.push(j);
          return target.jurisdiction(j);
        };
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function recordingEnv() {
  const asked = { rooms: [] as string[], index: [] as string[] };
  const vars: Partial<Env> = {
    SESSION_ROOM: recording(env.SESSION_ROOM, asked.rooms),
    SITE_INDEX: recording(env.SITE_INDEX, asked.index),
  };
  return { asked, vars };
}

/** The object the default namespace has under the same id: where the conversation would be without its jurisdiction. */
const defaultRoom = (sessionId: string) => env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(sessionId));
const admin = (siteKey: string, path: string, init: RequestInit & { json?: unknown } = {}, vars: Partial<Env> = {}) =>
  call(
    `${path}${path.includes("?") ? "&" : "?"}site=${siteKey}`,
    { ...init, headers: { "x-parley-admin-key": DEMO_ADMIN_KEY } },
    vars,
  );

async function chatTurn(s: { token: string }, vars: Partial<Env>) {
  vi.spyOn(globalThis, "fetch").mockResolvedValue(sseResponse([delta("Keep the rash dry.", "stop")]));
  const { res, done } = await call(
    "/v1/chat/completions",
    {
      method: "POST",
      headers: auth(s.token),
      json: { stream: true, messages: [{ id: "q1", role: "user", content: "a rash" }], parley: { replyId: "r1" } },
    },
    vars,
  );
  await readSse(res);
  await done();
}

describe("a site in the EU jurisdiction", () => {
  it("creates its conversation through SESSION_ROOM.jurisdiction('eu'); every later request reaches it", async () => {
    const siteKey = await putSite({ jurisdiction: "eu", providers });
    const { asked, vars } = recordingEnv();
    const s = await openSession("derm-consult", vars, { siteKey });
    expect(s.sessionId).toMatch(/^eu-[0-9a-f-]{36}$/);
    expect(asked.rooms).toEqual(["eu"]);
    // Created in the jurisdiction's namespace, not the default one.
    expect((await sessionRoom(env, s.sessionId).getState()).sessionId).toBe(s.sessionId);
    expect((await defaultRoom(s.sessionId).getState()).sessionId).toBe("");

    // The visitor's routes: restore, a streamed turn (run by the object itself), a photo.
    const restored = await call(`/v1/sessions/${s.sessionId}`, { headers: auth(s.token) }, vars);
    expect(restored.res.status).toBe(200);
    await chatTurn(s, vars);
    await agreeToPhotos(s, vars);
    const upload = await call(
      `/v1/sessions/${s.sessionId}/photos`,
      { method: "POST", body: bareJpeg(), headers: { ...auth(s.token), "content-type": "image/jpeg" } },
      vars,
    );
    expect(upload.res.status).toBe(201);
    const state = await sessionRoom(env, s.sessionId).getState();
    expect(state.messages.map((m) => m.id)).toEqual(["q1", "r1"]);
    expect((await defaultRoom(s.sessionId).getState()).version).toBe(0);

    // Its photo is in the EU bucket only.
    const prefix = `photos/${siteKey}/${s.sessionId}/`;
    expect((await env.PHOTOS_EU!.list({ prefix })).objects).toHaveLength(1);
    expect((await env.PHOTOS.list({ prefix })).objects).toHaveLength(0);

    // The site's index is in the EU too: the owner's list finds the conversation there, the default index has none.
    await pushToIndex(s.sessionId);
    const list = await json((await admin(siteKey, "/v1/admin/sessions", {}, vars)).res);
    expect(list.sessions.map((r: { sessionId: string }) => r.sessionId)).toEqual([s.sessionId]);
    expect(await env.SITE_INDEX.get(env.SITE_INDEX.idFromName(siteKey)).list({}, 10)).toEqual([]);
    expect(await siteIndex(env, { siteKey, jurisdiction: "eu" }).has(s.sessionId)).toBe(true);
    expect(asked.index.every((j) => j === "eu") && asked.index.length).toBeTruthy();

    // The owner's view and delete reach the same object; the delete takes the EU photo and row with it.
    expect((await admin(siteKey, `/v1/admin/sessions/${s.sessionId}`, {}, vars)).res.status).toBe(200);
    const erased = await admin(siteKey, `/v1/admin/sessions/${s.sessionId}`, { method: "DELETE" }, vars);
    expect(erased.res.status).toBe(204);
    expect((await sessionRoom(env, s.sessionId).getState()).sessionId).toBe("");
    expect((await env.PHOTOS_EU!.list({ prefix })).objects).toHaveLength(0);
    expect(await siteIndex(env, { siteKey, jurisdiction: "eu" }).has(s.sessionId)).toBe(false);
    expect(asked.rooms.every((j) => j === "eu")).toBe(true);
    expect(asked.rooms.length).toBeGreaterThanOrEqual(5);
  });

  it("queues a visitor's thumbs-down with the EU desk, not the default one", async () => {
    const siteKey = await putSite({ jurisdiction: "eu", providers });
    const s = await openSession("sales-coach", {}, { siteKey });
    await chatTurn(s, {});
    const rated = await call(`/v1/sessions/${s.sessionId}/feedback`, {
      method: "POST",
      headers: auth(s.token),
      json: { messageId: "r1", rating: "down", comment: "too vague" },
    });
    expect(rated.res.status).toBe(201);
    await rated.done();
    expect(await strategyDesk(env, { siteKey, jurisdiction: "eu" }, "sales-coach").pending()).toHaveLength(1);
    expect(await strategyDesk(env, { siteKey }, "sales-coach").pending()).toHaveLength(0);
  });

  it("keeps its jurisdiction when the owner's settings are saved with another", async () => {
    const siteKey = await putSite({ jurisdiction: "eu", providers });
    const { site } = await json((await admin(siteKey, "/v1/admin/site")).res);
    const { allowedOrigins, models, rateLimits, budgets, desk, retentionDays, takeover } = site;
    const form = {
      allowedOrigins,
      models,
      rateLimits,
      budgets,
      desk,
      retentionDays,
      takeover,
      jurisdiction: "fedramp",
    };
    const put = await admin(siteKey, "/v1/admin/site", { method: "PUT", json: form });
    expect(put.res.status).toBe(200);
    expect((await json(put.res)).site.jurisdiction).toBe("eu");
  });

  it("is refused (503 JSON) where the runtime has no jurisdictions: never placed by default", async () => {
    const siteKey = await putSite({ jurisdiction: "eu", providers });
    const { res } = await call(
      "/v1/sessions",
      { method: "POST", json: { siteKey, agentId: "derm-consult" } },
      { JURISDICTION_STAND_IN: "" },
    );
    expect(res.status).toBe(503);
    const body = await json(res);
    expect(body.error).toMatchObject({ code: "misconfigured" });
    expect(body.error.message).toContain("jurisdiction eu");
  });

  it("answers 503 to a photo when the EU bucket is not bound, and stores it in no other bucket", async () => {
    const siteKey = await putSite({ jurisdiction: "eu", providers });
    const s = await openSession("derm-consult", {}, { siteKey });
    await agreeToPhotos(s);
    const { res } = await call(
      `/v1/sessions/${s.sessionId}/photos`,
      { method: "POST", body: bareJpeg(), headers: { ...auth(s.token), "content-type": "image/jpeg" } },
      { PHOTOS_EU: undefined },
    );
    expect(res.status).toBe(503);
    expect((await json(res)).error.code).toBe("misconfigured");
    expect((await env.PHOTOS.list({ prefix: `photos/${siteKey}/` })).objects).toHaveLength(0);
  });
});

describe("a site without a jurisdiction keeps today's placement", () => {
  it("mints plain UUIDs, asks no namespace for a jurisdiction, keeps photos in PHOTOS", async () => {
    const siteKey = await putSite({ providers });
    const { asked, vars } = recordingEnv();
    const s = await openSession("derm-consult", vars, { siteKey });
    expect(s.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f-]{27}$/);
    await chatTurn(s, vars);
    await agreeToPhotos(s, vars);
    const upload = await call(
      `/v1/sessions/${s.sessionId}/photos`,
      { method: "POST", body: bareJpeg(), headers: { ...auth(s.token), "content-type": "image/jpeg" } },
      vars,
    );
    expect(upload.res.status).toBe(201);
    await pushToIndex(s.sessionId);
    expect((await admin(siteKey, "/v1/admin/sessions", {}, vars)).res.status).toBe(200);
    expect(asked).toEqual({ rooms: [], index: [] });
    expect((await defaultRoom(s.sessionId).getState()).messages).toHaveLength(2);
    expect((await env.PHOTOS.list({ prefix: `photos/${siteKey}/${s.sessionId}/` })).objects).toHaveLength(1);
    expect(await env.SITE_INDEX.get(env.SITE_INDEX.idFromName(siteKey)).has(s.sessionId)).toBe(true);
  });
});
