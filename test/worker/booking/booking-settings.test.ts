import { afterEach, describe, expect, it, vi } from "vitest";
import { auth, call, openSession } from "../../helpers/worker/client.ts";
import { putSite, sha256Hex } from "../../helpers/worker/sites.ts";
import { admin, HOOK_ADMIN, hookSite } from "../../helpers/worker/webhooks.ts";

/**
 * The site's calendar as its owner sets it (GET/PUT/DELETE /v1/admin/booking): the key is a worker
 * secret named in the CALCOM_ namespace, never its value; the calendar's address must be public.
 */
const DEPLOYED = { DEMO_MODE: "" };
const calendar = { provider: "calcom", apiKeySecret: "CALCOM_API_KEY", eventTypeId: 4321, timeZone: "Europe/Berlin" };

afterEach(() => vi.restoreAllMocks());

const booking = async (siteKey: string, method: string, json?: unknown, vars = {}) => {
  const { res } = await admin(siteKey, "/v1/admin/booking", { method, ...(json ? { json } : {}) }, vars);
  return { status: res.status, body: (await res.json()) as any };
};

describe("booking settings", () => {
  it("connects, reads back without the key, changes and disconnects the calendar", async () => {
    const siteKey = await putSite({ booking: undefined, adminKeySha256: await sha256Hex(HOOK_ADMIN) });
    const vars = { CALCOM_API_KEY: "cal_live_secret_value" } as Record<string, string>;
    expect((await openSession("derm-consult", vars, { siteKey })).agent.tools).not.toContain("find_slots");
    const put = await booking(siteKey, "PUT", calendar, { ...vars, ...DEPLOYED });
    expect(put).toEqual({
      status: 200,
      body: {
        booking: { ...calendar, baseUrl: "https://api.cal.com", daysAhead: 14 },
        keySet: true,
        demo: false,
      },
    });
    const read = await booking(siteKey, "GET", undefined, DEPLOYED);
    expect(read.body).toMatchObject({ booking: { eventTypeId: 4321, timeZone: "Europe/Berlin" }, keySet: false });
    expect(JSON.stringify([put.body, read.body])).not.toContain("cal_live_secret_value");
    // The site's booking agents are offered the booking tools now, and not once it is disconnected.
    expect((await openSession("derm-consult", vars, { siteKey })).agent.tools).toContain("find_slots");
    const off = await booking(siteKey, "DELETE", undefined, vars);
    expect(off.body).toEqual({ booking: null, keySet: false, demo: true });
    expect((await openSession("derm-consult", vars, { siteKey })).agent.tools).not.toContain("find_slots");
  });

  it("refuses a foreign secret, a non-public address, an unknown time zone: each at its field", async () => {
    const siteKey = await hookSite();
    const before = (await booking(siteKey, "GET")).body.booking;
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    for (const [change, path] of [
      [{ apiKeySecret: "SESSION_SECRET" }, "apiKeySecret"],
      [{ apiKeySecret: "LLM_API_KEY" }, "apiKeySecret"],
      [{ baseUrl: "https://10.0.0.7" }, "baseUrl"],
      [{ baseUrl: "https://169.254.169.254.nip.io" }, "baseUrl"],
      [{ baseUrl: "https://cal.example.com/api" }, "baseUrl"],
      [{ timeZone: "Mars/Olympus" }, "timeZone"],
      [{ daysAhead: 90 }, "daysAhead"],
      [{ provider: "google" }, "provider"],
    ] as const) {
      const { status, body } = await booking(siteKey, "PUT", { ...calendar, ...change }, DEPLOYED);
      expect([path, status, body.error.code, body.error.issues[0].path]).toEqual([
        path,
        400,
        "validation_failed",
        path,
      ]);
    }
    expect(fetchSpy).not.toHaveBeenCalled();
    expect((await booking(siteKey, "GET")).body.booking).toEqual(before);
  });

  it("never sends a secret outside the CALCOM_ namespace, nor to a non-public address, at call time", async () => {
    // Written to KV directly, past the owner's route: the worker checks before any request leaves (demo
    // mode too, which allows loopback addresses only).
    const vars = { LLM_API_KEY: "sk-provider-secret", CALCOM_API_KEY: "cal_live_x" };
    const findSlots = async (b: Record<string, unknown>) => {
      const siteKey = await putSite({ booking: { ...calendar, ...b } as never });
      const s = await openSession("derm-consult", vars, { siteKey });
      const fetchSpy = vi.spyOn(globalThis, "fetch");
      const r = await call(
        "/v1/tools/find_slots",
        { method: "POST", headers: auth(s.token), json: { arguments: {} } },
        vars,
      );
      const body = (await r.res.json()) as any;
      await r.done();
      expect(fetchSpy).not.toHaveBeenCalled();
      fetchSpy.mockRestore();
      return [r.res.status, body.error.code, body.error.message];
    };
    expect(await findSlots({ apiKeySecret: "LLM_API_KEY", baseUrl: "https://cal.attacker.example" })).toEqual([
      503,
      "misconfigured",
      "A calendar key's secret name must start with CALCOM_",
    ]);
    expect(await findSlots({ baseUrl: "https://192.168.1.20" })).toEqual([
      403,
      "forbidden",
      expect.stringMatching(/private addresses are refused/),
    ]);
  });
});
