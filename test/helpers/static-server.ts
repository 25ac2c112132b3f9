import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { extname, join, normalize } from "node:path";

const TYPES: Record<string, string> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css" };

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** Serves a folder (or inline pages) on a loopback port: a second origin for cross-origin tests. */
export async function serveStatic(opts: { dir?: string; pages?: Record<string, string> }): Promise<StaticServer> {
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const page = opts.pages?.[path];
    if (page !== undefined) {
      res.writeHead(200, { "content-type": TYPES[".html"] });
      return res.end(page);
    }
    if (!opts.dir) return res.writeHead(404).end();
    const file = join(opts.dir, normalize(path === "/" ? "/index.html" : path));
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}
