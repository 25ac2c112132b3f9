import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { putOrdersAgent } from "../../helpers/worker/orders-agent.ts";
import { auth, call, openSession, readSse } from "../../helpers/worker/client.ts";
import { putSite, sha256Hex } from "../../helpers/worker/sites.ts";
import { admin, HOOK_ADMIN } from "../../helpers/worker/webhooks.ts";
import { delta, sseResponse } from "../../helpers/worker/provider-sse.ts";
import { sessionRoom } from "../../../worker/objects.ts";

/**
 * MCP servers the worker must never reach: addresses beside it (loopback outside demo mode, private,
 * link-local and cloud metadata, however spelled), and auth secrets outside the MCP namespace (the
 * worker would send its own secret to the owner's server). Refused when written, and again at call time.
 */
const base = inject("mcpServerUrl");
const DEPLOYED = { DEMO_MODE: "" };
const VARS = { MCP_ORDERS_TOKEN: "Bearer mcp-test-token" } as Record<string, string>;

afterEach(() => vi.restoreAllMocks());

const put = async (siteKey: string, servers: unknown[], vars = {}) => {
  const { res } = await admin(siteKey, "/v1/admin/mcp-servers", { method: "PUT", json: { servers } }, vars);
  return { status: res.status, body: (await res.json()) as any };
};
const lists = async () => (await (await fetch(`${base}/log`)).json()) as Record<string, { list: number; call: number }>;

async function site(mcpServers: unknown[]) {
  const agentId = `mcp-addr-${crypto.randomUUID().slice(0, 8)}`;
  await putOrdersAgent(agentId, ["mcp__orders__lookup_order"]);
  const siteKey = await putSite({
    agents: [agentId],
    mcpServers: mcpServers as never,
    adminKeySha256: await sha256Hex(HOOK_ADMIN),
    // The provider is a profile, answered by a test's stub.
    providers: [{ id: "test", baseUrl: "https://provider.test/v1" }],
  });
  return { siteKey, agentId };
}

describe("MCP server addresses", () => {
  it("refuses non-public addresses and foreign secrets when the owner writes them, with the field named", async () => {
    const { siteKey } = await site([]);
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const everywhere = [
      "https://10.0.0.5/mcp",
      "https://0300.0250.0.1/mcp", // 192.168.0.1 in octal
      "https://172.16.1.1/mcp",
      "https://169.254.169.254/mcp",
      "https://[fe80::1]/mcp",
      "https://[fd00::1]/mcp",
      "https://[::ffff:169.254.169.254]/mcp",
      "https://[64:ff9b::a9fe:a9fe]/mcp",
      "https://[2002:a9fe:a9fe::]/mcp",
      "https://metadata.google.internal./computeMetadata/v1",
      "https://169.254.169.254.nip.io/mcp",
      "https://app-10-0-0-1.sslip.io/mcp",
      "https://c0a80001.nip.io/mcp",
      "https://100.64.0.1/mcp",
      "https://0.0.0.0/mcp",
      "https://mcp/mcp",
      "https://user:pass@mcp.example.com/mcp",
    ];
    const deployedOnly = [
      "http://127.0.0.1:9/mcp",
      "https://localhost./mcp",
      "https://2130706433/mcp",
      "https://0x7f.1/mcp",
      "https://0177.0.0.1/mcp",
      "https://127.1/mcp",
      "https://[::1]/mcp",
      "https://[::127.0.0.1]/mcp",
      "https://[::ffff:127.0.0.1]/mcp",
      "http://mcp.example.com/mcp",
    ];
    for (const url of everywhere)
      for (const vars of [{}, DEPLOYED]) {
        const { status, body } = await put(siteKey, [{ id: "orders", url }], vars);
        expect([url, status, body.error?.code, body.error?.issues[0].path]).toEqual([
          url,
          400,
          "validation_failed",
          "servers.0.url",
        ]);
      }
    for (const url of deployedOnly) {
      const { status, body } = await put(siteKey, [{ id: "orders", url }], DEPLOYED);
      expect([url, status, body.error?.issues[0].path]).toEqual([url, 400, "servers.0.url"]);
    }
    const foreign = await put(siteKey, [
      { id: "orders", url: "https://mcp.example.com/mcp", auth: { secretName: "LLM_API_KEY" } },
    ]);
    expect([foreign.status, foreign.body.error.issues[0].path]).toEqual([400, "servers.0.auth.secretName"]);
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();

    const ok = await put(
      siteKey,
      [{ id: "orders", url: "https://mcp.example.com/mcp", auth: { secretName: "MCP_ORDERS_TOKEN" } }],
      { ...DEPLOYED, MCP_ORDERS_TOKEN: "Bearer x" },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.servers).toEqual([
      {
        id: "orders",
        url: "https://mcp.example.com/mcp",
        auth: { header: "authorization", secretName: "MCP_ORDERS_TOKEN" },
        secretSet: true,
      },
    ]);
    // The secret's value is never in an answer.
    expect(JSON.stringify(ok.body)).not.toContain("Bearer x");
    // Demo and test mode: a server on this machine is allowed (the tests' own run on 127.0.0.1).
    expect((await put(siteKey, [{ id: "orders", url: `${base}/good` }])).status).toBe(200);
  });

  it("refuses a server already in the config at call time: no request leaves, the turn goes on", async () => {
    // Written to KV directly (as `wrangler kv` would), past the owner's route: the real MCP server on loopback.
    const { siteKey, agentId } = await site([{ id: "orders", url: `${base}/good` }]);
    const vars = { ...VARS, ...DEPLOYED };
    const s = await openSession(agentId, vars, { siteKey });
    const before = await lists();
    const r = await call(
      "/v1/tools/mcp__orders__lookup_order",
      { method: "POST", headers: auth(s.token), json: { arguments: { orderId: "A-1001" } } },
      vars,
    );
    const body = (await r.res.json()) as any;
    await r.done();
    expect([r.res.status, body.error.code]).toEqual([403, "forbidden"]);
    expect(body.error.message).toMatch(/MCP server orders .*loopback addresses are refused/);

    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      return url.startsWith("https://provider.test/") ? Promise.resolve(sseResponse([delta("ok")])) : real(input, init);
    });
    const json = { stream: true, messages: [{ id: crypto.randomUUID(), role: "user", content: "Order A-1001?" }] };
    const t = await call("/v1/chat/completions", { method: "POST", headers: auth(s.token), json }, vars);
    expect(t.res.status).toBe(200);
    await readSse(t.res);
    await t.done();
    const trace = (await sessionRoom(env, s.sessionId).getState()).trace;
    expect(trace.find((x) => x.kind === "mcp")?.detail?.error).toMatch(/orders: .*loopback addresses are refused/);
    expect(await lists()).toEqual(before);
  });

  it("never sends a secret outside the MCP namespace, nor calls a metadata address, even in demo mode", async () => {
    const { siteKey, agentId } = await site([
      { id: "orders", url: `${base}/good`, auth: { header: "authorization", secretName: "LLM_API_KEY" } },
    ]);
    const s = await openSession(agentId, VARS, { siteKey });
    const before = await lists();
    const tool = async () => {
      const r = await call(
        "/v1/tools/mcp__orders__lookup_order",
        { method: "POST", headers: auth(s.token), json: { arguments: { orderId: "A-1001" } } },
        VARS,
      );
      const body = (await r.res.json()) as any;
      await r.done();
      return [r.res.status, body.error?.code, body.error?.message];
    };
    expect(await tool()).toEqual([403, "forbidden", expect.stringMatching(/secret's name must start with MCP_/)]);
    expect(await lists()).toEqual(before);
    await putSite({
      siteKey,
      agents: [agentId],
      mcpServers: [{ id: "orders", url: "http://169.254.169.254/latest/meta-data" }] as never,
    });
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    expect(await tool()).toEqual([403, "forbidden", expect.stringMatching(/link-local addresses are refused/)]);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
