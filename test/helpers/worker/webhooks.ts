import { inject } from "vitest";
import { Webhook } from "standardwebhooks";
import type { Env } from "../../../worker/env.ts";
import type { ReceivedHook } from "./hook-receiver-setup.ts";
import { call } from "./client.ts";
import { putSite, sha256Hex } from "./sites.ts";

export const HOOK_ADMIN = "hook-owner-key-" + "x".repeat(20);

/** A site of its own (the demo site's agents) with an admin key. */
export async function hookSite(): Promise<string> {
  return putSite({ adminKeySha256: await sha256Hex(HOOK_ADMIN) });
}

/** An admin call with the site's key, from an address of its own (admin key checks are rate limited per IP). */
export function admin(
  siteKey: string,
  path: string,
  init: RequestInit & { json?: unknown } = {},
  vars: Partial<Env> = {},
) {
  const ip = `10.${rand()}.${rand()}.${rand()}`;
  const headers = { "x-parley-admin-key": HOOK_ADMIN, "cf-connecting-ip": ip };
  const sep = path.includes("?") ? "&" : "?";
  return call(`${path}${sep}site=${encodeURIComponent(siteKey)}`, { ...init, headers }, vars);
}
const rand = () => Math.floor(Math.random() * 256);

/** A receiver of its own on the test's server: `url` to register, `log()` what it got. */
export function receiver(mode = "ok") {
  const name = crypto.randomUUID();
  const base = inject("hookReceiverUrl");
  return {
    url: `${base}/r/${name}/${mode}`,
    log: async (): Promise<ReceivedHook[]> => (await fetch(`${base}/log/${name}`)).json(),
  };
}

export async function addEndpoint(siteKey: string, url: string, events?: string[]) {
  const { res } = await admin(siteKey, "/v1/admin/webhooks", { method: "POST", json: { url, events } });
  if (res.status !== 201) throw new Error(`addEndpoint: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { endpoint: { id: string; secret: string } }).endpoint;
}

/** Waits until `until` holds for what the receiver got (the outbox delivers from its alarm). */
export async function waitFor<T>(read: () => Promise<T>, until: (v: T) => boolean, ms = 8000): Promise<T> {
  const stop = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (until(v) || Date.now() > stop) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What a receiver does with `standardwebhooks`: the parsed body, or a throw when no signature verifies. */
export function verified(hook: ReceivedHook, secret: string): { type: string; timestamp: string; data: any } {
  return new Webhook(secret).verify(hook.body, hook.headers) as { type: string; timestamp: string; data: any };
}
