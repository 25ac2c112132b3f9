import { createServer, type IncomingMessage, type Server } from "node:http";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /**
     * Webhook receivers on a real loopback socket: POST `${hookReceiverUrl}/r/<name>/<mode>` records
     * the request and answers by mode: `ok` 200, `503`, `429`, `400`, `hang` (never answers),
     * `fail<N>` (503 to the first N requests of that name, then 200). GET `/log/<name>`: what came.
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
  const server: Server = createServer(async (req, res) => {
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
    const failFirst = /^fail(\d+)$/.exec(mode);
    const status = failFirst ? (seen.length <= Number(failFirst[1]) ? 503 : 200) : mode === "ok" ? 200 : Number(mode);
    res.writeHead(status || 200, { "content-type": "application/json" });
    res.end(JSON.stringify({ received: status === 200, note: status === 200 ? "thanks" : "try later" }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  project.provide("hookReceiverUrl", `http://127.0.0.1:${(server.address() as { port: number }).port}`);
  return async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
}
