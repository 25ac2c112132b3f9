import { describe, expect, it } from "vitest";
import { auth, call, openSession } from "../../helpers/worker/client.ts";
import { addEndpoint, hookSite, receiver, verified, waitFor } from "../../helpers/worker/webhooks.ts";
import { env } from "cloudflare:workers";
import { sessionRoom } from "../../../worker/objects.ts";

/** crm_action through the real route: a signed crm.action event; a retried call acts once. */
const args = { action: "log_follow_up", dealId: "D-42", note: "Send samples to the clinic", dueDate: "2026-12-01" };

const crm = (token: string, a: unknown) =>
  call("/v1/tools/crm_action", { method: "POST", headers: auth(token), json: { arguments: a } });

describe("crm_action", () => {
  it("becomes one signed crm.action event keyed by its idempotency key; a retry queues nothing new", async () => {
    const site = await hookSite();
    const r = receiver();
    const ep = await addEndpoint(site, r.url, ["crm.action"]);
    const s = await openSession("sales-coach", {}, { siteKey: site });
    const first = await crm(s.token, args);
    const firstText = await first.res.text();
    await first.done();
    expect(first.res.status).toBe(200);
    const result = JSON.parse(firstText).result;
    expect(result).toMatchObject({ done: true, replayed: false, endpoints: 1 });
    const retry = await crm(s.token, args);
    const again = (await retry.res.json()) as any;
    expect(again.result).toMatchObject({ done: true, replayed: true, idempotencyKey: result.idempotencyKey });
    const [hook] = await waitFor(r.log, (l) => l.length >= 1);
    const body = verified(hook, ep.secret);
    expect(body).toMatchObject({
      type: "crm.action",
      data: { conversation: s.sessionId, idempotencyKey: result.idempotencyKey, ...args },
    });
    expect(hook.headers["webhook-id"]).toBe(`crm_${result.idempotencyKey}`);
    // The endpoint's secret never reaches the browser.
    expect(firstText).not.toContain(ep.secret);
    // Another action (another stage) is a new event.
    await crm(s.token, { action: "move_deal_stage", dealId: "D-42", stage: "negotiation" });
    const log = await waitFor(r.log, (l) => l.length >= 2);
    await new Promise((res) => setTimeout(res, 200));
    expect((await r.log()).map((h) => verified(h, ep.secret).data.action)).toEqual([
      "log_follow_up",
      "move_deal_stage",
    ]);
    expect(log).toHaveLength(2);
  });

  it("refuses a browser's event that would pass for a CRM action's record", async () => {
    const s = await openSession("sales-coach");
    // A step of the CRM's kind is the worker's (400); under the record's id, a browser's own kind names no call (403).
    for (const [kind, status] of [
      ["crm", 400],
      ["tool", 403],
    ] as const) {
      const planted = { id: "crm:anything", at: 1, type: "trace.step", data: { kind, ok: true } };
      const { res } = await call(`/v1/sessions/${s.sessionId}/events`, {
        method: "POST",
        headers: auth(s.token),
        json: { events: [planted] },
      });
      expect(res.status).toBe(status);
    }
    expect((await sessionRoom(env, s.sessionId).getState()).trace).toEqual([]);
  });

  it("answers 400 misconfigured for a site with no endpoint listening for crm.action", async () => {
    const site = await hookSite();
    await addEndpoint(site, receiver().url, ["conversation.started"]);
    const s = await openSession("sales-coach", {}, { siteKey: site });
    const none = await crm(s.token, args);
    expect(none.res.status).toBe(400);
    expect(((await none.res.json()) as any).error.code).toBe("misconfigured");
  });
});
