import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { putOrdersAgent } from "../../helpers/worker/orders-agent.ts";
import { outboundRefusal, type OutboundPolicy } from "../../../worker/net/resolved-address.ts";
import { attemptDelivery } from "../../../worker/webhooks/deliver.ts";
import { auth, call, openSession } from "../../helpers/worker/client.ts";
import { putSite } from "../../helpers/worker/sites.ts";
import { accountsSite, at, BOOT_KEY, freshIp, json } from "../../helpers/worker/accounts.ts";
import { ssoConfig } from "../../helpers/worker/sso.ts";

/**
 * Names whose DNS answer points beside the worker (a rebinding name, `localtest.me`, an internal host in
 * public DNS) are refused before a request leaves, as their address would be; a resolver that cannot be
 * asked refuses too. The resolver is the fake DoH server of doh-setup.ts.
 */
const doh = inject("dohUrl");
const resolver = `${doh}/dns-query`;
const DEPLOYED: OutboundPolicy = { loopback: false, resolver };
const name = (zone: string) => `h${crypto.randomUUID().slice(0, 8)}.${zone}`;
const asked = async (host: string) => Number(await (await fetch(`${doh}/log?name=${host}`)).text());

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("names resolved before an outbound request", () => {
  it("refuses a name answering a private address, allows a public one", async () => {
    expect(await outboundRefusal(`https://${name("private.test")}/hook`, DEPLOYED)).toEqual({
      code: "forbidden",
      message: expect.stringMatching(/resolves to 10\.0\.0\.5: private addresses are refused/),
    });
    expect(await outboundRefusal(`https://${name("public.test")}/hook`, DEPLOYED)).toBeNull();
  });

  it("refuses a mixed answer and an AAAA answer of ::1 (any non-public answer refuses)", async () => {
    const mixed = await outboundRefusal(`https://${name("mixed.test")}/mcp`, DEPLOYED);
    expect(mixed?.message).toMatch(/resolves to 10\.0\.0\.5/);
    const v6 = await outboundRefusal(`https://${name("v6loop.test")}/mcp`, DEPLOYED);
    expect(v6).toEqual({ code: "forbidden", message: expect.stringMatching(/resolves to ::1: loopback/) });
    // Demo mode allows loopback, as it does for literal addresses; private answers stay refused there.
    expect(await outboundRefusal(`https://${name("v6loop.test")}/mcp`, { loopback: true, resolver })).toBeNull();
    expect(await outboundRefusal(`https://${name("mixed.test")}/mcp`, { loopback: true, resolver })).not.toBeNull();
  });

  it("fails closed with its own code when the resolver is down or gives no usable answer", async () => {
    const down = await outboundRefusal(`https://${name("public.test")}/`, {
      loopback: false,
      resolver: "http://127.0.0.1:1/dns-query",
    });
    expect(down).toEqual({ code: "dns_unavailable", message: expect.stringMatching(/could not be reached/) });
    const servfail = await outboundRefusal(`https://${name("servfail.test")}/`, DEPLOYED);
    expect(servfail?.code).toBe("dns_unavailable");
    const nx = await outboundRefusal(`https://${name("nx.test")}/`, DEPLOYED);
    expect(nx).toEqual({ code: "forbidden", message: expect.stringMatching(/has no A or AAAA record/) });
  });

  it("asks once per TTL, then again once it has passed", async () => {
    const host = name("short.test");
    expect(await outboundRefusal(`https://${host}/a`, DEPLOYED)).toBeNull();
    expect(await outboundRefusal(`https://${host}/b`, DEPLOYED)).toBeNull();
    expect(await asked(host)).toBe(2); // one A and one AAAA question
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 1_500 });
    expect(await outboundRefusal(`https://${host}/c`, DEPLOYED)).toBeNull();
    expect(await asked(host)).toBe(4);
    // A refusal is cached too: the answer is not asked for again within its TTL.
    const priv = name("private.test");
    await outboundRefusal(`https://${priv}/`, DEPLOYED);
    expect((await outboundRefusal(`https://${priv}/`, DEPLOYED))?.code).toBe("forbidden");
    expect(await asked(priv)).toBe(2);
  });

  it("resolves nothing for an address literal, and refuses the literal itself first", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    expect(await outboundRefusal("https://93.184.216.34/", DEPLOYED)).toBeNull();
    expect((await outboundRefusal("https://10.1.2.3/", DEPLOYED))?.message).toMatch(/private addresses/);
    expect(spy).not.toHaveBeenCalled();
  });
});

describe("the worker's outbound calls", () => {
  const vars = (extra = {}) => ({ DEMO_MODE: "", DNS_RESOLVER_URL: resolver, ...extra });

  async function mcpSite(url: string) {
    const agentId = `dns-${crypto.randomUUID().slice(0, 8)}`;
    await putOrdersAgent(agentId, ["mcp__orders__lookup_order"]);
    const siteKey = await putSite({ agents: [agentId], mcpServers: [{ id: "orders", url }] as never });
    return { siteKey, agentId };
  }

  async function toolCall(url: string, extra = {}) {
    const { siteKey, agentId } = await mcpSite(url);
    const s = await openSession(agentId, vars(extra), { siteKey });
    const spy = vi.spyOn(globalThis, "fetch");
    const r = await call(
      "/v1/tools/mcp__orders__lookup_order",
      { method: "POST", headers: auth(s.token), json: { arguments: { orderId: "A-1001" } } },
      vars(extra),
    );
    const body = (await r.res.json()) as { error: { code: string; message: string } };
    await r.done();
    const hosts = spy.mock.calls.map(([input]) => new URL(input instanceof Request ? input.url : String(input)).host);
    return { status: r.res.status, error: body.error, hosts };
  }

  it("an MCP server whose name answers a private address: 403, no request to it", async () => {
    const host = name("private.test");
    const { status, error, hosts } = await toolCall(`https://${host}/mcp`);
    expect([status, error.code]).toEqual([403, "forbidden"]);
    expect(error.message).toMatch(/MCP server orders .*resolves to 10\.0\.0\.5/);
    expect(hosts).not.toContain(host);
    expect(hosts.length).toBeGreaterThan(0);
  });

  it("the resolver down: 503 dns_unavailable, no request to the server", async () => {
    const host = name("public.test");
    const { status, error, hosts } = await toolCall(`https://${host}/mcp`, {
      DNS_RESOLVER_URL: "http://127.0.0.1:1/dns-query",
    });
    expect([status, error.code]).toEqual([503, "dns_unavailable"]);
    expect(hosts).not.toContain(host);
  });

  it("a single sign-on issuer whose name answers a private address: refused at its field, no request to it", async () => {
    const siteKey = await accountsSite();
    const host = name("private.test");
    const spy = vi.spyOn(globalThis, "fetch");
    const headers = { "x-parley-admin-key": BOOT_KEY, "cf-connecting-ip": freshIp() };
    const body = ssoConfig(`https://${host}`);
    const { res, done } = await call(
      at(`/v1/admin/sso?site=${siteKey}`),
      { method: "PUT", json: body, headers },
      vars(),
    );
    const { error } = await json(res);
    await done();
    expect([res.status, error.code, error.issues[0].path]).toEqual([400, "validation_failed", "issuer"]);
    expect(error.issues[0].message).toMatch(/resolves to 10\.0\.0\.5/);
    const hosts = spy.mock.calls.map(([input]) => new URL(input instanceof Request ? input.url : String(input)).host);
    expect(hosts).not.toContain(host);
  });

  it("a webhook attempt to a name answering a private address: recorded as refused, nothing sent", async () => {
    const host = name("private.test");
    const spy = vi.spyOn(globalThis, "fetch");
    const outcome = await attemptDelivery(
      { url: `https://${host}/hook`, secrets: ["whsec_" + btoa("k".repeat(24))] },
      { id: "msg_1", body: "{}" },
      { timeoutMs: 500, policy: DEPLOYED },
    );
    expect(outcome).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/^refused: .*10\.0\.0\.5/) });
    const down = await attemptDelivery(
      { url: `https://${name("public.test")}/hook`, secrets: ["whsec_" + btoa("k".repeat(24))] },
      { id: "msg_2", body: "{}" },
      { timeoutMs: 500, policy: { loopback: false, resolver: "http://127.0.0.1:1/dns-query" } },
    );
    expect(down.error).toMatch(/^dns: /);
    const hosts = spy.mock.calls.map(([input]) => new URL(input instanceof Request ? input.url : String(input)).host);
    expect(hosts.every((h) => h.startsWith("127.0.0.1"))).toBe(true);
  });
});
