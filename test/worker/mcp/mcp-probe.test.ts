import { describe, expect, inject, it } from "vitest";
import type { McpProbe } from "../../../shared/admin/mcp-probe.ts";
import { putSite, sha256Hex } from "../../helpers/worker/sites.ts";
import { admin, HOOK_ADMIN } from "../../helpers/worker/webhooks.ts";

/**
 * The console's "test connection" and the agent editor's tool list: the worker lists a server's tools as a
 * turn would, and names what kept it from them (a refused address, no answer, a refused auth header, an
 * answer that is not MCP), and each tool whose schema keeps it from being offered.
 */
const base = inject("mcpServerUrl");
const hooks = inject("hookReceiverUrl");
const VARS = { MCP_ORDERS_TOKEN: "Bearer mcp-test-token" } as Record<string, string>;
const AUTH = { header: "authorization", secretName: "MCP_ORDERS_TOKEN" };

async function probe(siteKey: string, server: unknown, vars = VARS) {
  const { res, done } = await admin(siteKey, "/v1/admin/mcp-servers/test", { method: "POST", json: { server } }, vars);
  const body = (await res.json()) as McpProbe & { error?: { code: string; issues: Array<{ path: string }> } };
  await done();
  return { status: res.status, body };
}

describe("MCP test connection", () => {
  it("lists a real server's tools, and each tool a schema keeps from the model with why", async () => {
    const siteKey = await putSite({ adminKeySha256: await sha256Hex(HOOK_ADMIN) });
    const good = await probe(siteKey, { id: "orders", url: `${base}/good`, auth: AUTH });
    expect(good.status).toBe(200);
    expect(good.body.ok).toBe(true);
    expect(good.body.tools.map((t) => [t.name, t.problem])).toEqual([
      ["mcp__orders__lookup_order", null],
      ["mcp__orders__slow_report", null],
      ["mcp__orders__fail_report", null],
      ["mcp__orders__huge_report", null],
    ]);
    expect(good.body.tools[0].description).toBe("Looks up an order's status");
    const bad = await probe(siteKey, { id: "odd", url: `${base}/bad-schema` });
    expect(bad.body.ok).toBe(true);
    expect(bad.body.tools.find((t) => t.tool === "broken")?.problem).toMatch(/timestamp/);
    expect(bad.body.tools.find((t) => t.tool === "lookup_order")?.problem).toBeNull();
  });

  it("names the failure: unreachable, unauthorized, not MCP, secret missing, refused address", async () => {
    const siteKey = await putSite({ adminKeySha256: await sha256Hex(HOOK_ADMIN) });
    const kind = async (server: unknown, vars = VARS) => {
      const { body } = await probe(siteKey, server, vars);
      return [body.ok, body.failure?.kind];
    };
    expect(await kind({ id: "x", url: "http://127.0.0.1:1/mcp" })).toEqual([false, "unreachable"]);
    expect(await kind({ id: "x", url: `${base}/good` })).toEqual([false, "unauthorized"]);
    expect(await kind({ id: "x", url: `${hooks}/r/not-mcp/ok` })).toEqual([false, "not_mcp"]);
    expect(await kind({ id: "x", url: `${base}/good`, auth: AUTH }, {})).toEqual([false, "secret_missing"]);
    const priv = await probe(siteKey, { id: "x", url: "https://10.0.0.5/mcp" });
    expect([priv.status, priv.body.error?.code, priv.body.error?.issues[0].path]).toEqual([
      400,
      "validation_failed",
      "server.url",
    ]);
    const metadata = await probe(siteKey, { id: "x", url: "https://169.254.169.254.nip.io/mcp" });
    expect(metadata.status).toBe(400);
  });

  it("lists every saved server's tools for the agent editor", async () => {
    const siteKey = await putSite({
      adminKeySha256: await sha256Hex(HOOK_ADMIN),
      mcpServers: [
        { id: "orders", url: `${base}/good`, auth: AUTH },
        { id: "gone", url: "http://127.0.0.1:1/mcp" },
      ] as never,
    });
    const { res, done } = await admin(siteKey, "/v1/admin/mcp-tools", {}, VARS);
    const body = (await res.json()) as { servers: McpProbe[] };
    await done();
    expect(body.servers.map((s) => [s.id, s.ok, s.tools.length, s.failure?.kind ?? null])).toEqual([
      ["orders", true, 4, null],
      ["gone", false, 0, "unreachable"],
    ]);
    // The secret's value is never in an answer.
    expect(JSON.stringify(body)).not.toContain("mcp-test-token");
  });
});
