import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../../worker/app.ts";
import type { Env } from "../../../worker/env.ts";
import { withDemo } from "../../../worker/demo/index.ts";
import type { SessionResponse } from "../../../shared/wire/api.ts";

/**
 * Calls the real Hono app inside workerd (real Durable Objects and KV), without a server
 * (hono's `app.request` habit). `vars` overrides the bindings this request's route sees, e.g.
 * `{ DEMO_MODE: "" }` for a worker as deployed; the Durable Objects keep the project's own bindings, so a
 * test's provider is a profile of its site (sites.ts), which the session's object reads too. The env goes
 * through the entry point's `withDemo`, so the worker project's DEMO_MODE binding (vitest.config.ts)
 * switches the demo on, as `npm start` does.
 */
export const ORIGIN = "http://127.0.0.1:8787";
export const SITE_KEY = "demo-site-key-0001";
const app = createApp();
/** The client address rate limits count by; one per test file, so files never share a window. */
export const CLIENT_IP = `10.${rand()}.${rand()}.${rand()}`;
function rand() {
  return Math.floor(Math.random() * 256);
}

export async function call(path: string, init: RequestInit & { json?: unknown } = {}, vars: Partial<Env> = {}) {
  const headers = new Headers(init.headers);
  if (!headers.has("origin")) headers.set("origin", ORIGIN);
  if (!headers.has("cf-connecting-ip")) headers.set("cf-connecting-ip", CLIENT_IP);
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers.set("content-type", "application/json");
  }
  const ctx = createExecutionContext();
  const res = await app.request(path, { ...init, headers, body }, withDemo({ ...env, ...vars }), ctx);
  return { res, done: () => waitOnExecutionContext(ctx) };
}

export async function openSession(
  agentId = "derm-consult",
  vars: Partial<Env> = {},
  opts: { siteKey?: string; headers?: Record<string, string> } = {},
): Promise<SessionResponse> {
  const { res } = await call(
    "/v1/sessions",
    { method: "POST", json: { siteKey: opts.siteKey ?? SITE_KEY, agentId }, headers: opts.headers },
    vars,
  );
  if (res.status !== 201) throw new Error(`openSession: ${res.status} ${await res.text()}`);
  return (await res.json()) as SessionResponse;
}

export function auth(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Reads an SSE response into its `data:` payloads, in order. */
export async function readSse(res: Response): Promise<string[]> {
  return (await readSseUntilBroken(res, true)).events;
}

/**
 * The same, for a stream that may break: the events that arrived whole, and whether it broke
 * (a relayed provider stream that breaks off reaches the client as a broken response).
 */
export async function readSseUntilBroken(
  res: Response,
  mustEnd = false,
): Promise<{ events: string[]; broken: boolean }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let broken = false;
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read())
      text += decoder.decode(next.value, { stream: true });
  } catch (err) {
    if (mustEnd) throw err;
    broken = true;
  }
  const blocks = text.split("\n\n");
  // A block cut off by the break is not an event.
  if (broken) blocks.pop();
  return { events: blocks.filter((b) => b.startsWith("data: ")).map((b) => b.slice(6)), broken };
}

/**
 * The visitor agrees to the agent's photo notice (its default version), once per session: an upload
 * needs it (the photo kit asks before the first photo and sends the agreement to the consent route).
 */
const photoConsented = new Set<string>();
export async function agreeToPhotos(s: { sessionId: string; token: string }, vars: Partial<Env> = {}): Promise<void> {
  if (photoConsented.has(s.sessionId)) return;
  const { res } = await call(
    `/v1/sessions/${s.sessionId}/consent`,
    { method: "POST", json: { kind: "photo", version: "1" }, headers: auth(s.token) },
    vars,
  );
  if (res.status !== 201) throw new Error(`agreeToPhotos: ${res.status} ${await res.text()}`);
  photoConsented.add(s.sessionId);
}
