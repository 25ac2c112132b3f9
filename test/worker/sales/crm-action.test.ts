import { afterEach, describe, expect, it, vi } from "vitest";
import { auth, call, openSession } from "../../helpers/worker/client.ts";
import { putSite } from "../../helpers/worker/sites.ts";
import { env } from "cloudflare:workers";
import { sessionRoom } from "../../../worker/session/session-stub.ts";

/** crm_action through the real route: the webhook's secret stays on the worker; a retried call acts once. */
const VARS = { CRM_WEBHOOK_SECRET: "crm-secret-0123456789" } as Record<string, string>;
const args = { action: "log_follow_up", dealId: "D-42", note: "Send samples to the clinic", dueDate: "2026-12-01" };

afterEach(() => vi.restoreAllMocks());

async function session() {
  const siteKey = await putSite({
    safety: { crm: { webhookUrl: "https://crm.example/hooks/parley", secretName: "CRM_WEBHOOK_SECRET" } },
  });
  return openSession("sales-coach", VARS, { siteKey });
}
const crm = (token: string, a: unknown) =>
  call("/v1/tools/crm_action", { method: "POST", headers: auth(token), json: { arguments: a } }, VARS);

describe("crm_action", () => {
  it(
    "calls the webhook once with its secret and an idempotency key; a retried " +
      "call is answered without acting again",
    async () => {
      const spy = vi
        .spyOn(globalThis, "fetch")
        .mockImplementation(async () => new Response('{"ok":true}', { status: 201 }));
      const s = await session();
      const first = await crm(s.token, args);
      const firstText = await first.res.text();
      await first.done();
      expect(first.res.status).toBe(200);
      expect(JSON.parse(firstText).result).toMatchObject({ done: true, replayed: false, status: 201 });
      const retry = await crm(s.token, args);
      const again = (await retry.res.json()) as any;
      expect(again.result).toMatchObject({
        done: true,
        replayed: true,
        idempotencyKey: JSON.parse(firstText).result.idempotencyKey,
      });
      expect(spy).toHaveBeenCalledTimes(1);
      const [url, init] = spy.mock.calls[0];
      expect(String(url)).toBe("https://crm.example/hooks/parley");
      const headers = new Headers(init?.headers);
      expect(headers.get("authorization")).toBe("Bearer crm-secret-0123456789");
      expect(headers.get("idempotency-key")).toBe(again.result.idempotencyKey);
      // The secret never reaches the browser.
      expect(firstText).not.toContain("crm-secret");
      // Another action (another stage) is a new call.
      await crm(s.token, { action: "move_deal_stage", dealId: "D-42", stage: "negotiation" });
      expect(spy).toHaveBeenCalledTimes(2);
    },
  );

  it("refuses a browser's event that would pass for a CRM action's record", async () => {
    const s = await session();
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

  it(
    "answers 400 misconfigured for a site without a CRM, and 502 when the CRM " + "fails (nothing remembered)",
    async () => {
      const plain = await openSession("sales-coach");
      const none = await crm(plain.token, args);
      expect(none.res.status).toBe(400);
      expect(((await none.res.json()) as any).error.code).toBe("misconfigured");
      const spy = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("down", { status: 503 }));
      const s = await session();
      expect((await crm(s.token, args)).res.status).toBe(502);
      spy.mockResolvedValue(new Response("{}", { status: 200 }));
      const ok = (await (await crm(s.token, args)).res.json()) as any;
      expect(ok.result.replayed).toBe(false);
    },
  );
});
