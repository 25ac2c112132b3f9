import { describe, expect, it } from "vitest";
import { auth, call, openSession } from "../helpers/worker/client.ts";

const HTTPS = "https://parley.example";

function expectHeaders(res: Response, https: boolean, referrer = "strict-origin-when-cross-origin") {
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("referrer-policy")).toBe(referrer);
  expect(res.headers.get("strict-transport-security")).toBe(https ? "max-age=31536000" : null);
}

describe("security headers on every response the worker answers", () => {
  it("JSON answers, their errors and the fallback 404, over http and https", async () => {
    for (const base of ["", HTTPS]) {
      const https = base === HTTPS;
      const health = (await call(`${base}/v1/health`)).res;
      expect(health.status).toBe(200);
      expectHeaders(health, https);
      const refused = (await call(`${base}/v1/sessions/nope/live`)).res;
      expect(refused.status).toBe(401);
      expectHeaders(refused, https);
      const missing = (await call(`${base}/v1/no-such-route`)).res;
      expect(missing.status).toBe(404);
      expectHeaders(missing, https);
    }
  });

  it("the console page: HSTS over https, its own stricter Referrer-Policy kept", async () => {
    expectHeaders((await call("/console")).res, false, "no-referrer");
    const page = (await call(`${HTTPS}/console/conversations`)).res;
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expectHeaders(page, true, "no-referrer");
  });

  it("a stream (the live channel's SSE form) and a response the CORS middleware copied", async () => {
    const s = await openSession();
    const { res } = await call(`/v1/sessions/${s.sessionId}/live?reply=nope`, { headers: auth(s.token) });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:8787");
    expectHeaders(res, false);
    await res.body?.cancel();
  });

  it("a demo page passed on from the static assets (immutable headers)", async () => {
    const page = (await call("/qa.html")).res;
    expect(page.status).toBe(200);
    expectHeaders(page, false);
  });
});
