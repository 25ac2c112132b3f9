import { describe, expect, it, vi } from "vitest";
import { addEndpoint, admin, hookSite } from "../../helpers/worker/webhooks.ts";

const DEPLOYED = { DEMO_MODE: "" };

async function create(site: string, url: string, vars = {}) {
  const { res } = await admin(site, "/v1/admin/webhooks", { method: "POST", json: { url } }, vars);
  return { status: res.status, body: (await res.json()) as any };
}

/** No request leaves for an address beside the worker: refused when the endpoint is written. */
describe("webhook endpoint URLs", () => {
  it("refuses loopback in a deployed worker, and private, link-local and credentialed URLs everywhere", async () => {
    const site = await hookSite();
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const everywhere = [
      "https://10.0.0.5/hook",
      "https://172.16.1.1/hook",
      "https://192.168.1.10/hook",
      "http://169.254.169.254/latest/meta-data",
      "https://[fe80::1]/hook",
      "https://[fd00::1]/hook",
      "https://[::ffff:10.0.0.1]/hook",
      "https://100.64.0.1/hook",
      "https://0.0.0.0/hook",
      "https://intranet/hook",
      "https://printer.local/hook",
      "https://user:pass@hooks.example.com/hook",
      "https://token@hooks.example.com/hook",
      "ftp://hooks.example.com/hook",
      "not a url",
    ];
    const deployedOnly = [
      "http://127.0.0.1:9/hook",
      "http://localhost:9/hook",
      "http://2130706433/hook",
      "http://0x7f.1/hook",
      "http://[::1]:9/hook",
      "http://app.localhost/hook",
      "http://hooks.example.com/hook",
    ];
    for (const url of everywhere) {
      for (const vars of [{}, DEPLOYED]) {
        const { status, body } = await create(site, url, vars);
        expect([url, status, body.error.code]).toEqual([url, 400, "validation_failed"]);
        expect(body.error.issues[0].path).toBe("url");
      }
    }
    for (const url of deployedOnly) {
      const { status, body } = await create(site, url, DEPLOYED);
      expect([url, status, body.error?.code]).toEqual([url, 400, "validation_failed"]);
    }
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
    // Demo and test mode: receivers on this machine are allowed (the tests' own run on 127.0.0.1).
    expect((await create(site, "http://127.0.0.1:9/hook")).status).toBe(201);
    expect((await create(site, "https://hooks.example.com/parley", DEPLOYED)).status).toBe(201);
    const listed = await admin(site, "/v1/admin/webhooks");
    expect(((await listed.res.json()) as any).endpoints).toHaveLength(2);
  });

  it("refuses the same URLs on a change, and unknown events or endpoints with a 4xx", async () => {
    const site = await hookSite();
    const ep = await addEndpoint(site, "https://hooks.example.com/a");
    const put = await admin(site, `/v1/admin/webhooks/${ep.id}`, {
      method: "PUT",
      json: { url: "https://192.168.0.2/x" },
    });
    expect(put.res.status).toBe(400);
    const bad = await admin(site, "/v1/admin/webhooks", {
      method: "POST",
      json: { url: "https://hooks.example.com/b", events: ["conversation.started", "session.hijacked"] },
    });
    expect(bad.res.status).toBe(400);
    expect(((await bad.res.json()) as any).error.code).toBe("validation_failed");
    for (const [method, path] of [
      ["DELETE", "/v1/admin/webhooks/ep_missing"],
      ["POST", "/v1/admin/webhooks/ep_missing/test"],
      ["POST", "/v1/admin/webhook-deliveries/abc/resend"],
    ]) {
      const { res } = await admin(site, path, { method, ...(method === "POST" ? {} : {}) });
      expect([path, res.status]).toEqual([path, 404]);
    }
    const q = await admin(site, "/v1/admin/webhook-deliveries?status=lost");
    expect(q.res.status).toBe(400);
  });
});
