import { createServer, type Server } from "node:http";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /**
     * A DNS-over-HTTPS resolver (JSON form, as cloudflare-dns.com answers `accept: application/dns-json`):
     * `${dohUrl}/dns-query?name=<n>&type=A|AAAA`. A name answers by its last two labels: `*.private.test`
     * 10.0.0.5, `*.public.test` 93.184.216.34, `*.mixed.test` both, `*.v6loop.test` a public A and AAAA ::1,
     * `*.short.test` public with a TTL of 1 s, `*.servfail.test` SERVFAIL, `*.nx.test` NXDOMAIN.
     * GET `${dohUrl}/log?name=<n>`: how many questions named it.
     */
    dohUrl: string;
  }
}

type DnsRecord = { type: 1 | 28; data: string; TTL?: number };
const PUBLIC_V4 = "93.184.216.34";
const ZONES: { [zone: string]: DnsRecord[] } = {
  "private.test": [{ type: 1, data: "10.0.0.5" }],
  "public.test": [
    { type: 1, data: PUBLIC_V4 },
    { type: 28, data: "2606:2800:220:1:248:1893:25c8:1946" },
  ],
  "mixed.test": [
    { type: 1, data: PUBLIC_V4 },
    { type: 1, data: "10.0.0.5" },
  ],
  "v6loop.test": [
    { type: 1, data: PUBLIC_V4 },
    { type: 28, data: "::1" },
  ],
  "short.test": [{ type: 1, data: PUBLIC_V4, TTL: 1 }],
};

export default async function setup(project: TestProject) {
  const asked = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://doh");
    const name = (url.searchParams.get("name") ?? "").toLowerCase();
    if (url.pathname === "/log") {
      res.writeHead(200, { "content-type": "application/json" }).end(String(asked.get(name) ?? 0));
      return;
    }
    if (url.pathname !== "/dns-query" || req.headers.accept !== "application/dns-json") {
      res.writeHead(400).end();
      return;
    }
    asked.set(name, (asked.get(name) ?? 0) + 1);
    const type = url.searchParams.get("type") === "AAAA" ? 28 : 1;
    const zone = name.split(".").slice(-2).join(".");
    const status = zone === "servfail.test" ? 2 : ZONES[zone] ? 0 : 3;
    const answer = (ZONES[zone] ?? [])
      .filter((r) => r.type === type)
      .map((r) => ({ name, type: r.type, TTL: r.TTL ?? 300, data: r.data }));
    res.writeHead(200, { "content-type": "application/dns-json" });
    res.end(JSON.stringify({ Status: status, Question: [{ name, type }], Answer: answer }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  project.provide("dohUrl", `http://127.0.0.1:${(server.address() as { port: number }).port}`);
  return async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
}
