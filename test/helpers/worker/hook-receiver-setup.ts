import { createServer, type IncomingMessage, type Server } from "node:http";
import { settled } from "../settled-handler.ts";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /**
     * Webhook receivers on a real loopback socket: POST `${hookReceiverUrl}/r/<name>/<mode>` records
     * the request and answers by mode: `ok` 200, `503`, `429`, `400`, `hang` (never answers),
     * `fail<N>` (503 to the first N requests of that name, then 200), `wait<N>then<S>` (429 with
     * `Retry-After: N` in seconds to the first request, then status S), `date<N>then<S>` (the same with
     * Retry-After as the HTTP date N seconds ahead). GET `/log/<name>`: what came.
     */
    hookReceiverUrl: string;
  }
}

export interface ReceivedHook {
  mode: string;
  at: number;
  headers: Record<string, string>;
  body: string;
}

/** The receivers the worker's outbox delivers to, in Node, as a site owner's server would be. */
export default async function setup(project: TestProject) {
  const log = new Map<string, ReceivedHook[]>();
  const hung = new Set<IncomingMessage>();
  const server: Server = createServer(
    settled(async (req, res) => {
      const [, kind, name, mode = "ok"] = (req.url ?? "").split("/");
      if (req.method === "GET" && kind === "log") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(log.get(name) ?? []));
        return;
      }
      let body = "";
      for await (const chunk of req) body += chunk;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
      const seen = log.get(name) ?? [];
      seen.push({ mode, at: Date.now(), headers, body });
      log.set(name, seen);
      if (mode === "hang") {
        hung.add(req);
        return;
      }
      const { status, retryAfter } = answerOf(mode, seen.length);
      res.writeHead(status, {
        "content-type": "application/json",
        ...(retryAfter ? { "retry-after": retryAfter } : {}),
      });
      res.end(JSON.stringify({ received: status === 200, note: status === 200 ? "thanks" : "try later" }));
    }),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  project.provide("hookReceiverUrl", `http://127.0.0.1:${(server.address() as { port: number }).port}`);
  return async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
}

/** A mode's answer to the `nth` request of its name (from 1): the status and a Retry-After, if any. */
function answerOf(mode: string, nth: number): { status: number; retryAfter?: string } {
  const failFirst = /^fail(\d+)$/.exec(mode);
  if (failFirst) return { status: nth <= Number(failFirst[1]) ? 503 : 200 };
  const waitFirst = /^(wait|date)(\d+)then(\d+)$/.exec(mode);
  if (waitFirst && nth > 1) return { status: Number(waitFirst[3]) };
  if (waitFirst) {
    const seconds = Number(waitFirst[2]);
    const date = new Date(Date.now() + seconds * 1000).toUTCString();
    return { status: 429, retryAfter: waitFirst[1] === "wait" ? String(seconds) : date };
  }
  return { status: mode === "ok" ? 200 : Number(mode) || 200 };
}
