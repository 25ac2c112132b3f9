import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { siteAccounts } from "../../../worker/objects.ts";
import type { Role } from "../../../shared/admin/roles.ts";
import { call, ORIGIN } from "./client.ts";
import { putSite, sha256Hex } from "./sites.ts";
import { SoftAuthenticator } from "./soft-authenticator.ts";

/** Accounts in worker tests: a site with its bootstrap admin key, invitations, passkey sign-ins, sessions. */
export const BOOT_KEY = "owner-key-" + "a".repeat(20);
export const at = (path: string) => `${ORIGIN}${path}`;
export const json = async <T = any>(r: Response) => (await r.json()) as T;

export async function accountsSite(overrides: Record<string, unknown> = {}): Promise<string> {
  return putSite({ adminKeySha256: await sha256Hex(BOOT_KEY), ...overrides } as never);
}

const rand = () => Math.floor(Math.random() * 256);
/** A client address of its own: a key check counts against its IP's minute (the tests make many). */
export const freshIp = () => `10.${rand()}.${rand()}.${rand()}`;

/** A request with a key (the bootstrap key by default) in the admin header. */
export async function withKey(siteKey: string, method: string, path: string, body?: unknown, key = BOOT_KEY) {
  const url = at(path) + (path.includes("?") ? "&" : "?") + `site=${encodeURIComponent(siteKey)}`;
  const headers = { "x-parley-admin-key": key, "cf-connecting-ip": freshIp() };
  return (await call(url, { method, json: body, headers })).res;
}

export async function invite(
  siteKey: string,
  role: Role,
  name?: string,
  key = BOOT_KEY,
): Promise<{ id: string; token: string }> {
  const res = await withKey(siteKey, "POST", "/v1/admin/invitations", { role, ...(name ? { name } : {}) }, key);
  expect(res.status).toBe(201);
  return json(res);
}

export interface Browser {
  cookie: string;
  csrf: string;
  who: { kind: string; id: string; name: string; role: Role };
  get: (path: string) => Promise<Response>;
  send: (method: string, path: string, body?: unknown) => Promise<Response>;
}

/** What a browser holds after a sign-in answer: the cookie and the CSRF token, and calls made with them. */
export async function browserOf(res: Response): Promise<Browser> {
  expect(res.status).toBe(200);
  // The console's cookie, among others the answer may set or clear (single sign-on's binding cookie).
  const cookie = /__Host-parley-console=[^;,]+/.exec(res.headers.get("set-cookie") ?? "")![0];
  const body = await json(res);
  const send = async (method: string, path: string, payload?: unknown) =>
    (await call(at(path), { method, json: payload, headers: { cookie, "x-parley-csrf": body.csrf } })).res;
  return {
    cookie,
    csrf: body.csrf,
    who: body.who,
    get: async (path) => (await call(at(path), { headers: { cookie } })).res,
    send,
  };
}

export const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
  (await call(at(path), { method: "POST", json: body, headers: { "cf-connecting-ip": freshIp(), ...headers } })).res;

/** Accepts an invitation with a new software passkey: the answer of the accept route, and the passkey. */
export async function accept(siteKey: string, token: string, name: string, passkey?: SoftAuthenticator) {
  const key = passkey ?? (await SoftAuthenticator.create());
  const opts = await post("/v1/console/invitation/options", { siteKey, token, name });
  expect(opts.status).toBe(200);
  const credential = await key.register(await json(opts), ORIGIN);
  const res = await post("/v1/console/invitation/accept", { siteKey, token, name, credential });
  return { res, passkey: key };
}

/** Signs in with a passkey: the sign-in route's answer. */
export async function passkeySignIn(siteKey: string, passkey: SoftAuthenticator, opts: { counter?: number } = {}) {
  const options = await post("/v1/console/passkey/options", { siteKey });
  expect(options.status).toBe(200);
  const credential = await passkey.assert(await json(options), ORIGIN, opts);
  return { res: await post("/v1/console/passkey", { siteKey, credential }), credential };
}

/** A new account of this role, signed in: its browser and its passkey. */
export async function member(
  siteKey: string,
  role: Role,
  name = `${role}-${crypto.randomUUID().slice(0, 6)}`,
  key = BOOT_KEY,
) {
  const { token } = await invite(siteKey, role, undefined, key);
  const { res, passkey } = await accept(siteKey, token, name);
  return { browser: await browserOf(res), passkey };
}

/** A named admin key of this role. */
export async function namedKey(siteKey: string, role: Role, name = `${role} script`): Promise<string> {
  const res = await withKey(siteKey, "POST", "/v1/admin/keys", { name, role });
  expect(res.status).toBe(201);
  return (await json(res)).key;
}

/** The site's audit entries, newest first (read with the bootstrap key). */
export async function auditOf(siteKey: string, query = ""): Promise<any[]> {
  const res = await withKey(siteKey, "GET", `/v1/admin/audit${query ? `?${query}` : ""}`);
  expect(res.status).toBe(200);
  return (await json(res)).entries;
}

/** Makes the console sessions of an account (its id), or of the admin key ("bootstrap"), 11 minutes old. */
export const ageSessions = (siteKey: string, who: string) =>
  runInDurableObject(siteAccounts(env, siteKey), (_o, state) =>
    state.storage.sql.exec(
      `UPDATE console_sessions SET auth_at = ? WHERE ${who === "bootstrap" ? "actor_kind" : "actor_id"} = ?`,
      Date.now() - 11 * 60_000,
      who,
    ),
  );
