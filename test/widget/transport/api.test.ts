import { describe, expect, it } from "vitest";
import { routePath } from "../../../shared/wire/route-path.ts";
import * as ROUTES from "../../../shared/wire/routes.ts";
import { createApi } from "../../../widget/transport/api.ts";
import { isProtocolError } from "../../../widget/transport/errors.ts";
import { fakeApi } from "../../helpers/widget/fake-api.ts";

const API = "http://parley.test";

describe("routes", () => {
  it("fills a route's parameters, each URL-encoded so an id cannot add a segment", () => {
    expect(routePath(ROUTES.stageComplete, { id: "s/1", stageId: "pico" })).toBe(
      "/v1/sessions/s%2F1/stages/pico/complete",
    );
    expect(routePath(ROUTES.chat)).toBe("/v1/chat/completions");
  });
});

describe("the widget's transport", () => {
  const answering = (body: unknown) => async () => new Response(JSON.stringify(body), { status: 200 });

  it("calls each route by name and hands back the checked answer", async () => {
    const fake = fakeApi();
    const api = createApi({ api: API, fetch: fake.fetch });
    const opened = await api.call(ROUTES.sessions, null, { body: { siteKey: "k", agentId: "derm-consult" } });
    expect(opened).toMatchObject({ sessionId: "s1", token: "t1", agent: { id: "derm-consult" } });
    const restored = await api.call(ROUTES.session, opened);
    expect(restored.state.sessionId).toBe("old");
    expect(fake.requests.map((r) => `${r.method} ${r.path} ${r.auth}`)).toEqual([
      "POST /v1/sessions null",
      "GET /v1/sessions/s1 Bearer t1",
    ]);
  });

  it("an answer of another shape is a ProtocolError naming the route, not a cast that fails later", async () => {
    const auth = { sessionId: "s", token: "t" };
    const cases: Array<[unknown, (api: ReturnType<typeof createApi>) => Promise<unknown>]> = [
      [{ sessionId: "s", token: "t" }, (api) => api.call(ROUTES.sessions, null, { body: {} })],
      [{ state: { sessionId: "s", messages: "none", version: 1 } }, (api) => api.call(ROUTES.session, auth)],
      [
        { completed: "yes", checks: [] },
        (api) => api.call(ROUTES.stageComplete, auth, { method: "POST" }, { stageId: "pico" }),
      ],
      [
        { result: 1, events: [{ nope: true }] },
        (api) => api.call(ROUTES.tool, auth, { body: {} }, { name: "web_search" }),
      ],
      [{ trace: null }, (api) => api.call(ROUTES.trace, auth)],
      ["<html>", (api) => api.call(ROUTES.trace, auth)],
    ];
    for (const [body, call] of cases) {
      const err = await call(createApi({ api: API, fetch: answering(body) })).catch((e) => e);
      expect(isProtocolError(err), JSON.stringify(body)).toBe(true);
      expect(err).toMatchObject({ code: "bad_response", message: expect.stringContaining(API + "/v1/") });
    }
  });
});
