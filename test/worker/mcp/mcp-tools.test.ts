import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { putOrdersAgent } from "../../helpers/worker/orders-agent.ts";
import { auth, call, openSession, readSse } from "../../helpers/worker/client.ts";
import { putSite } from "../../helpers/worker/sites.ts";
import { delta, sseResponse } from "../../helpers/worker/provider-sse.ts";
import { sessionRoom } from "../../../worker/objects.ts";

/** The owner's tools over MCP: real SDK servers on loopback (mcp-server-setup.ts), the worker as the client. */
const base = inject("mcpServerUrl");
const VARS = { MCP_ORDERS_TOKEN: "Bearer mcp-test-token" } as Record<string, string>;
const ORDERS = ["lookup_order", "slow_report", "fail_report", "huge_report"].map((t) => `mcp__orders__${t}`);

afterEach(() => vi.restoreAllMocks());

async function mcpSite() {
  const suffix = crypto.randomUUID().slice(0, 8);
  const full = `mcp-all-${suffix}`;
  const narrow = `mcp-one-${suffix}`;
  await putOrdersAgent(full, [
    "knowledge_search",
    ...ORDERS,
    "mcp__broken__broken",
    "mcp__broken__lookup_order",
    "mcp__flaky__vanish",
  ]);
  await putOrdersAgent(narrow, ["mcp__orders__lookup_order"]);
  const siteKey = await putSite({
    agents: [full, narrow],
    // The provider is a profile, answered by stubProvider.
    providers: [{ id: "test", baseUrl: "https://provider.test/v1" }],
    mcpServers: [
      { id: "orders", url: `${base}/good`, auth: { secretName: "MCP_ORDERS_TOKEN" }, timeoutMs: 1000 },
      { id: "broken", url: `${base}/bad-schema` },
      { id: "flaky", url: `${base}/vanish` },
    ],
  });
  return { siteKey, full, narrow };
}

/** The provider is stubbed; every other request (the MCP servers) goes out for real. */
function stubProvider() {
  const real = globalThis.fetch;
  return vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    return url.startsWith("https://provider.test/") ? Promise.resolve(sseResponse([delta("ok")])) : real(input, init);
  });
}

async function turn(token: string, text = "Where is my order A-1001?") {
  const { res, done } = await call(
    "/v1/chat/completions",
    {
      method: "POST",
      headers: auth(token),
      json: { stream: true, messages: [{ id: crypto.randomUUID(), role: "user", content: text }] },
    },
    VARS,
  );
  expect(res.status).toBe(200);
  await readSse(res);
  await done();
}

async function tool(token: string, name: string, args: unknown, vars = VARS) {
  const { res, done } = await call(
    `/v1/tools/${name}`,
    { method: "POST", headers: auth(token), json: { arguments: args } },
    vars,
  );
  const body = (await res.json()) as any;
  await done();
  return { status: res.status, body };
}

const lists = async () => (await (await fetch(`${base}/log`)).json()) as Record<string, { list: number }>;

describe("MCP tools", () => {
  it("offers the allowlisted tools with their schemas; an invalid schema is left out and traced", async () => {
    const spy = stubProvider();
    const { siteKey, full, narrow } = await mcpSite();
    const s = await openSession(full, VARS, { siteKey });
    await turn(s.token);
    const sentToProvider = () =>
      spy.mock.calls
        .filter(([u]) => String(u instanceof Request ? u.url : u).startsWith("https://provider.test/"))
        .map(([, init]) => JSON.parse(String((init as RequestInit).body)));
    const sent = sentToProvider();
    const offered = sent[0].tools.map((t: any) => t.function.name);
    expect(offered).toEqual(["knowledge_search", ...ORDERS, "mcp__broken__lookup_order", "mcp__flaky__vanish"]);
    const lookup = sent[0].tools.find((t: any) => t.function.name === "mcp__orders__lookup_order").function;
    expect(lookup).toMatchObject({
      description: "Looks up an order's status",
      parameters: { type: "object", required: ["orderId"], properties: { orderId: { type: "string" } } },
    });
    const trace = (await sessionRoom(env, s.sessionId).getState()).trace;
    const problem = trace.find((t) => t.kind === "mcp");
    expect(problem).toMatchObject({ ok: false, name: "tools/list" });
    expect(problem?.detail?.error).toBe('broken/broken: .when: unknown type "timestamp"');
    // Listed once per server and kept: a second turn and another agent's turn list nothing again.
    const before = await lists();
    await turn(s.token, "And order A-1002?");
    const other = await openSession(narrow, VARS, { siteKey });
    await turn(other.token);
    expect(await lists()).toEqual(before);
    const narrowSent = sentToProvider().at(-1);
    expect(narrowSent.tools.map((t: any) => t.function.name)).toEqual(["mcp__orders__lookup_order"]);
  });

  it("runs a call on the worker: text and structured content as observation, a timed trace step", async () => {
    const { siteKey, full } = await mcpSite();
    const s = await openSession(full, VARS, { siteKey });
    const { status, body } = await tool(s.token, "mcp__orders__lookup_order", { orderId: "A-1001" });
    expect([status, body.error?.message]).toEqual([200, undefined]);
    expect(body.result).toEqual({
      text: "Order A-1001 has shipped",
      structured: { orderId: "A-1001", status: "shipped", carrier: "DHL" },
    });
    const step = (await sessionRoom(env, s.sessionId).getState()).trace.find(
      (t) => t.name === "mcp__orders__lookup_order",
    );
    expect(step).toMatchObject({ kind: "tool", ok: true });
    expect(step?.ms).toBeGreaterThanOrEqual(0);
    // The auth header is a worker secret: without it the call is refused before any request.
    const unset = await tool(
      s.token,
      "mcp__orders__lookup_order",
      { orderId: "A-1" },
      { ...VARS, MCP_ORDERS_TOKEN: "" },
    );
    expect([unset.status, unset.body.error.code]).toEqual([503, "misconfigured"]);
  });

  it("answers a slow tool, an error, 5 MB and a server gone mid-call clearly; the conversation goes on", async () => {
    const spy = stubProvider();
    const { siteKey, full } = await mcpSite();
    const s = await openSession(full, VARS, { siteKey });
    const cases = [
      ["mcp__orders__slow_report", { ms: 3000 }, 504, "slow_report on MCP server orders did not finish within 1000 ms"],
      ["mcp__orders__fail_report", {}, 502, "fail_report on MCP server orders reported an error: "],
      ["mcp__orders__huge_report", {}, 502, "huge_report on MCP server orders returned 5242"],
      ["mcp__flaky__vanish", {}, 502, "vanish on MCP server flaky failed: "],
    ] as const;
    for (const [name, args, status, message] of cases) {
      const t0 = Date.now();
      const { status: got, body } = await tool(s.token, name, args);
      expect([name, got, body.error.code]).toEqual([name, status, "tool_failed"]);
      expect(body.error.message).toContain(message);
      console.info(`${name}: ${got} ${body.error.message} (${Date.now() - t0} ms)`);
      expect(Date.now() - t0).toBeLessThan(2500);
    }
    const failed = (await sessionRoom(env, s.sessionId).getState()).trace.filter((t) => t.kind === "tool" && !t.ok);
    expect(failed.map((t) => t.name)).toEqual(cases.map(([n]) => n));
    // The same session goes on: a tool call and a turn after all of it.
    expect((await tool(s.token, "mcp__orders__lookup_order", { orderId: "A-7" })).status).toBe(200);
    await turn(s.token, "Thanks");
    expect(spy).toHaveBeenCalled();
  });

  it("refuses a tool the agent does not allowlist, and names that are not the site's servers", async () => {
    const { siteKey, narrow } = await mcpSite();
    const s = await openSession(narrow, VARS, { siteKey });
    const log = await lists();
    for (const name of ["mcp__orders__slow_report", "mcp__elsewhere__lookup_order"]) {
      const { status, body } = await tool(s.token, name, {});
      expect([name, status, body.error.code]).toEqual([name, 403, "forbidden"]);
    }
    expect(await lists()).toEqual(log);
  });
});
