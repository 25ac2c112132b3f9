import { inject } from "vitest";
import { env } from "cloudflare:workers";
import type { SessionState } from "../../../shared/session/session.ts";
import { auth, call, ORIGIN } from "./client.ts";
import { providerSite, putSite, sha256Hex } from "./sites.ts";
import { member } from "./accounts.ts";
import { sessionRoom } from "../../../worker/objects.ts";

/** Takeover's worker tests: a site with it on, a staff member's console, a visitor's routes. */
export const ADMIN = "owner-key-" + "t".repeat(20);
export const at = (path: string) => `${ORIGIN}${path}`;
export const json = async <T = any>(r: Response) => (await r.json()) as T;
export const stateOf = (sid: string): Promise<SessionState> => sessionRoom(env, sid).getState();

/** A provider over a real socket, one chunk every 50 ms: a reply long enough to join or stop halfway. */
export const slowProvider = () => inject("slowUpstreamUrl");

/**
 * A site with takeover set so. Its model is the demo's, or the provider at `provider` (a profile of the
 * site's, which the session's object reads too): slowProvider(), or a URL a test's `fetch` stub answers.
 */
export async function takeoverSite(takeover: object = { enabled: true }, provider?: string) {
  const site = { adminKeySha256: await sha256Hex(ADMIN), takeover } as never;
  return provider ? providerSite(provider, site) : putSite(site);
}

/**
 * A staff member signed in to the console: an account of that name (invited with the site's admin
 * key, signed up with a software passkey), its cookie and CSRF token as their browser holds them.
 * The name the visitor sees is the account's: a `name` the calls below send is ignored by the worker.
 */
export async function staff(siteKey: string, name = "Mei") {
  const { browser } = await member(siteKey, "staff", name, ADMIN);
  const { cookie, csrf } = browser;
  const send = async (method: string, path: string, body?: unknown) =>
    (await call(at(path), { method, headers: { cookie, "x-parley-csrf": csrf }, json: body })).res;
  return {
    cookie,
    send,
    get: async (path: string) => (await call(at(path), { headers: { cookie } })).res,
    post: (path: string, body: unknown = {}) => send("POST", path, body),
    beat: (name = "Mei") => send("POST", "/v1/admin/live/presence", { name }),
    join: (sid: string, name = "Mei") => send("POST", `/v1/admin/live/${sid}/join`, { name }),
    say: (sid: string, content: string) => send("POST", `/v1/admin/live/${sid}/messages`, { content }),
    handBack: (sid: string) => send("POST", `/v1/admin/live/${sid}/handback`, { name: "Mei" }),
  };
}

export const visitor = (token: string, sid: string) => ({
  ask: async (reason?: string) =>
    (await call(`/v1/sessions/${sid}/person`, { method: "POST", json: reason ? { reason } : {}, headers: auth(token) }))
      .res,
  say: async (id: string, content: string) =>
    (await call(`/v1/sessions/${sid}/messages`, { method: "POST", json: { id, content }, headers: auth(token) })).res,
  contact: async (body: unknown) =>
    (await call(`/v1/sessions/${sid}/contact`, { method: "POST", json: body, headers: auth(token) })).res,
  chat: async (messages: unknown[], replyId?: string) =>
    call("/v1/chat/completions", {
      method: "POST",
      json: { stream: true, messages, ...(replyId ? { parley: { replyId } } : {}) },
      headers: auth(token),
    }),
});
