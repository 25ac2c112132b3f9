import { readFile } from "node:fs/promises";
import { settled } from "./settled-handler.ts";
import { createServer, type Server } from "node:http";
import { extname, join, normalize } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** An inline page: its HTML, or its HTML with response headers of its own (e.g. a Content-Security-Policy). */
export type StaticPage = string | { html: string; headers: Record<string, string> };

/**
 * Serves a folder (or inline pages) on a loopback port: a second origin for cross-origin tests.
 * `headers` go on every response of the folder (and on pages that bring none of their own).
 */
export async function serveStatic(opts: {
  dir?: string;
  pages?: Record<string, StaticPage>;
  headers?: Record<string, string>;
}): Promise<StaticServer> {
  const server: Server = createServer(
    settled(async (req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const page = opts.pages?.[path];
      if (page !== undefined) {
        const headers = typeof page === "string" ? opts.headers : page.headers;
        res.writeHead(200, { "content-type": TYPES[".html"], ...headers });
        return res.end(typeof page === "string" ? page : page.html);
      }
      if (!opts.dir) return res.writeHead(404).end();
      const file = join(opts.dir, normalize(path === "/" ? "/index.html" : path));
      try {
        const body = await readFile(file);
        res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", ...opts.headers });
        res.end(body);
      } catch {
        res.writeHead(404).end();
      }
    }),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}
