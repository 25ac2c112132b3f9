import { describe, expect, it } from "vitest";
import { call } from "../../helpers/worker/client.ts";
import { webhookHeaders } from "../../../worker/webhooks/sign.ts";
import { env } from "cloudflare:workers";
import { webhookOutbox } from "../../../worker/objects.ts";

/** The demo site's endpoint and receiver: demo mode only, and the receiver takes only what its secret signed. */
describe("the demo's webhooks", () => {
  it("do not exist in a deployed worker", async () => {
    for (const [method, path] of [
      ["GET", "/v1/demo/webhooks"],
      ["POST", "/v1/demo/webhook-inbox"],
    ]) {
      const { res } = await call(path, { method, ...(method === "POST" ? { json: {} } : {}) }, { DEMO_MODE: "" });
      expect([path, res.status, ((await res.json()) as any).error.code]).toEqual([path, 404, "not_found"]);
    }
  });

  it("make the demo site's endpoint on first look, and its receiver verifies each delivery", async () => {
    const first = await call("/v1/demo/webhooks");
    const view = (await first.res.json()) as any;
    expect(view.endpoint.url).toMatch(/\/v1\/demo\/webhook-inbox$/);
    expect(view.endpoint.events).toContain("message.created");
    await call("/v1/demo/webhooks");
    const endpoints = await webhookOutbox(env, "demo-site-key-0001").listEndpoints();
    expect(endpoints).toHaveLength(1);
    const body = JSON.stringify({ type: "webhook.test", timestamp: new Date().toISOString(), data: {} });
    const post = (headers: Record<string, string>) =>
      call("/v1/demo/webhook-inbox", {
        method: "POST",
        body,
        headers: { ...headers, "content-type": "application/json" },
      });
    const now = Math.floor(Date.now() / 1000);
    const forged = await webhookHeaders("msg_1", now, body, ["whsec_" + btoa("another secret, 24 bytes!")]);
    expect((await post(forged)).res.status).toBe(401);
    expect((await post({})).res.status).toBe(401);
    const signed = await webhookHeaders(
      "msg_1",
      now,
      body,
      await webhookOutbox(env, "demo-site-key-0001").signingSecrets(endpoints[0].id),
    );
    const ok = await post(signed);
    expect([ok.res.status, await ok.res.json()]).toEqual([200, { verified: true, type: "webhook.test" }]);
  });
});
