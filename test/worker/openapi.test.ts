import { describe, expect, it } from "vitest";
import * as ROUTES from "../../shared/wire/routes.ts";
import { ROUTE_PERMISSIONS } from "../../shared/wire/route-permissions.ts";
import { createApp } from "../../worker/app.ts";
import { appOperations, openApiPath, ROUTE_DOCS } from "../../worker/openapi/openapi-document.ts";
import { auth, call, openSession } from "../helpers/worker/client.ts";
import { pushToIndex } from "../helpers/worker/index-push.ts";
import { putSite, sha256Hex } from "../helpers/worker/sites.ts";

/**
 * The API contract (GET /v1/openapi.json) against the worker itself: every route the app serves and
 * every route ROUTES declares is in it, and what the worker answers is what it says, status, body
 * and error code.
 */
type Operation = {
  responses: Record<string, unknown>;
  security: unknown[];
  requestBody?: unknown;
  "x-error-codes": Record<string, string[]>;
  "x-undocumented"?: true;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

async function contract(): Promise<Document> {
  const { res } = await call(ROUTES.openapi);
  expect(res.status).toBe(200);
  return (await res.json()) as Document;
}

const ADMIN = "owner-key-" + "y".repeat(20);

/**
 * The route's entry in the contract, and the answer checked against it: a declared status; the body
 * against the route's answer schema (the one the document is made from); an error's code among the
 * codes the document lists for that status.
 */
async function expectContract(doc: Document, method: string, pattern: string, res: Response) {
  const op = doc.paths[openApiPath(pattern).path]?.[method.toLowerCase()];
  expect(op, `${method} ${pattern} in the document`).toBeDefined();
  const status = String(res.status);
  expect(Object.keys(op.responses), `${method} ${pattern} answered ${status}`).toContain(status);
  const body = res.headers.get("content-type")?.includes("json") ? await res.json() : await res.text();
  if (res.ok) {
    const schema = ROUTE_DOCS[`${method} ${pattern}`].answers[res.status]?.schema;
    if (schema) {
      const parsed = schema.safeParse(body);
      expect(parsed.success, `${method} ${pattern}: ${JSON.stringify(parsed.error?.issues.slice(0, 3))}`).toBe(true);
    }
  } else {
    const code = (body as { error: { code: string } }).error.code;
    expect(op["x-error-codes"][status], `${method} ${pattern} ${status}`).toContain(code);
  }
  return body as any;
}

describe("the API contract", () => {
  it("is served as OpenAPI 3.1 and lists every route the app serves and ROUTES declares", async () => {
    const doc = await contract();
    expect(doc.openapi).toMatch(/^3\.1\./);
    const served = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({
        op: `${method.toUpperCase()} ${path}`,
        undocumented: op["x-undocumented"],
      })),
    );
    expect(served.filter((s) => s.undocumented)).toEqual([]);
    const app = appOperations(createApp().routes).map((o) => `${o.method} ${openApiPath(o.path).path}`);
    expect(new Set(served.map((s) => s.op))).toEqual(new Set(app));
    // The table describes routes the app has, and only those.
    const declared = appOperations(createApp().routes).map((o) => `${o.method} ${o.path}`);
    expect(Object.keys(ROUTE_DOCS).sort()).toEqual([...new Set(declared)].sort());
    const { apiScope: _a, adminScope: _b, ...routes } = ROUTES;
    const missing = Object.entries(routes).filter(([, path]) => !doc.paths[openApiPath(path).path]);
    expect(missing).toEqual([]);
  });

  it("states each route's auth and body: the session bearer, the admin key or console cookie with CSRF", async () => {
    const doc = await contract();
    const chat = doc.paths["/v1/chat/completions"].post;
    expect(chat.security).toEqual([{ sessionBearer: [] }]);
    expect(chat.requestBody).toMatchObject({ content: { "application/json": { schema: { type: "object" } } } });
    expect(doc.paths["/v1/admin/sessions"].get.security).toEqual([{ adminKey: [] }, { consoleCookie: [] }]);
    expect(doc.paths["/v1/admin/site"].put.security).toEqual([
      { adminKey: [] },
      { consoleCookie: [], consoleCsrf: [] },
    ]);
    expect(doc.paths["/v1/sessions"].post.security).toEqual([]);
    expect(doc.paths["/v1/console/session"].delete.security).toEqual([{ consoleCookie: [], consoleCsrf: [] }]);
    expect(doc.paths["/v1/sessions/{id}/photos"].post.requestBody).toMatchObject({ content: { "image/png": {} } });
    expect(doc.paths["/v1/admin/sessions"].get["x-error-codes"]).toMatchObject({
      "401": ["unauthorized"],
      "429": ["rate_limited"],
    });
  });

  it("matches what a visitor's calls answer, errors included", async () => {
    const doc = await contract();
    const opened = await call(ROUTES.sessions, {
      method: "POST",
      json: { siteKey: "demo-site-key-0001", agentId: "medical-qa" },
    });
    const session = await expectContract(doc, "POST", ROUTES.sessions, opened.res);
    const headers = auth(session.token);
    const id = session.sessionId;
    const turn = await call(ROUTES.chat, {
      method: "POST",
      json: { stream: false, messages: [{ id: "q", role: "user", content: "How much water a day?" }] },
      headers,
    });
    await expectContract(doc, "POST", ROUTES.chat, turn.res);
    await turn.done();
    const restored = await call(`/v1/sessions/${id}`, { headers });
    await expectContract(doc, "GET", ROUTES.session, restored.res);
    await expectContract(doc, "GET", ROUTES.trace, (await call(`/v1/sessions/${id}/trace`, { headers })).res);
    const stop = await call(`/v1/sessions/${id}/replies/none/stop`, { method: "POST", headers });
    await expectContract(doc, "POST", ROUTES.replyStop, stop.res);
    await expectContract(doc, "GET", ROUTES.health, (await call(ROUTES.health)).res);

    const noAgent = await call(ROUTES.sessions, {
      method: "POST",
      json: { siteKey: "demo-site-key-0001", agentId: "nobody" },
    });
    await expectContract(doc, "POST", ROUTES.sessions, noAgent.res);
    const badBody = await call(ROUTES.chat, { method: "POST", json: { messages: "hi" }, headers });
    await expectContract(doc, "POST", ROUTES.chat, badBody.res);
    const noToken = await call(`/v1/sessions/${id}`);
    await expectContract(doc, "GET", ROUTES.session, noToken.res);
    const other = await openSession("derm-consult");
    const foreign = await call(`/v1/sessions/${id}`, { headers: auth(other.token) });
    await expectContract(doc, "GET", ROUTES.session, foreign.res);
  });

  it("matches what the owner's admin calls answer", async () => {
    const doc = await contract();
    const siteKey = await putSite({ adminKeySha256: await sha256Hex(ADMIN) });
    const s = await openSession("medical-qa", {}, { siteKey });
    await pushToIndex(s.sessionId);
    const admin = async (method: string, pattern: string, path: string) => {
      const { res } = await call(`${path}${path.includes("?") ? "&" : "?"}site=${siteKey}`, {
        method,
        headers: { "x-parley-admin-key": ADMIN },
      });
      return expectContract(doc, method, pattern, res);
    };
    const list = await admin("GET", ROUTES.adminSessions, "/v1/admin/sessions");
    expect(list.sessions.map((x: { sessionId: string }) => x.sessionId)).toEqual([s.sessionId]);
    await admin("GET", ROUTES.adminSession, `/v1/admin/sessions/${s.sessionId}`);
    await admin("GET", ROUTES.adminTrace, `/v1/admin/sessions/${s.sessionId}/trace`);
    await admin("GET", ROUTES.adminInsights, "/v1/admin/insights");
    await admin("GET", ROUTES.adminSite, "/v1/admin/site");
    await admin("GET", ROUTES.adminTemplates, "/v1/admin/templates");
    await admin("GET", ROUTES.adminAgents, "/v1/admin/agents");
    await admin("GET", ROUTES.adminAgent, "/v1/admin/agents/medical-qa");
    await admin("GET", ROUTES.adminKnowledge, "/v1/admin/knowledge");
    await admin("GET", ROUTES.adminPrompts, "/v1/admin/prompts");
    await admin("GET", ROUTES.adminDeskQueue, "/v1/admin/desk/medical-qa/queue");
    await admin("GET", ROUTES.adminDeskRuns, "/v1/admin/desk/medical-qa/runs");
    await admin("GET", ROUTES.adminSession, "/v1/admin/sessions/no-such-session");
    await admin("GET", ROUTES.adminSessions, "/v1/admin/sessions?limit=x");
    const wrongKey = await call(`/v1/admin/sessions?site=${siteKey}`, { headers: { "x-parley-admin-key": "nope" } });
    await expectContract(doc, "GET", ROUTES.adminSessions, wrongKey.res);
  });

  it("lists 403 reauth_required on every route the permission table asks a fresh sign-in for", async () => {
    const doc = await contract();
    const fresh = Object.entries(ROUTE_PERMISSIONS).filter(([, rule]) => rule.fresh);
    expect(fresh.length).toBeGreaterThan(0);
    const lacking = fresh
      .map(([key]) => key.split(" ") as [string, string])
      .filter(([method, pattern]) => {
        const op = doc.paths[openApiPath(pattern).path]?.[method.toLowerCase()];
        return !op?.["x-error-codes"]["403"]?.includes("reauth_required") || !op.responses["403"];
      })
      .map(([method, pattern]) => `${method} ${pattern}`);
    expect(lacking).toEqual([]);
  });
});
