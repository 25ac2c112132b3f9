import { createServer, type IncomingMessage, type Server as HttpServer } from "node:http";
import { settled } from "../settled-handler.ts";
import type { TestProject } from "vitest/node";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

declare module "vitest" {
  export interface ProvidedContext {
    /**
     * Real MCP servers (the official SDK, Streamable HTTP, stateless), each at `${mcpServerUrl}/<name>`:
     * `good` (needs `authorization: Bearer mcp-test-token`): lookup_order, slow_report (waits `ms`),
     * fail_report (a tool error), huge_report (5 MB); `bad-schema`: one tool whose schema is not valid
     * JSON Schema beside a valid one; `vanish`: a tool whose call drops the connection halfway.
     * GET `${mcpServerUrl}/log`: `{ <name>: { list, call } }` requests seen.
     */
    mcpServerUrl: string;
  }
}

export const MCP_TEST_TOKEN = "Bearer mcp-test-token";

const ORDER_SCHEMA = {
  type: "object",
  properties: { orderId: { type: "string", description: "The order's number, e.g. A-1001" } },
  required: ["orderId"],
};

type Tool = { name: string; description: string; inputSchema: Record<string, unknown> };
const TOOLS: Record<string, Tool[]> = {
  good: [
    { name: "lookup_order", description: "Looks up an order's status", inputSchema: ORDER_SCHEMA },
    {
      name: "slow_report",
      description: "A report that takes a while",
      inputSchema: { type: "object", properties: { ms: { type: "integer" } } },
    },
    { name: "fail_report", description: "A report that always fails", inputSchema: { type: "object" } },
    { name: "huge_report", description: "A report of 5 MB", inputSchema: { type: "object" } },
  ],
  "bad-schema": [
    {
      name: "broken",
      description: "A tool with a schema no provider accepts",
      inputSchema: { type: "object", properties: { when: { type: "timestamp" } } },
    },
    { name: "lookup_order", description: "Looks up an order's status", inputSchema: ORDER_SCHEMA },
  ],
  vanish: [{ name: "vanish", description: "Goes away mid-call", inputSchema: { type: "object" } }],
};

/** A fresh SDK server per request (stateless Streamable HTTP), as a serverless MCP server runs. */
function mcpServer(name: string, req: IncomingMessage, count: (kind: "list" | "call") => void): Server {
  const server = new Server({ name: `test-${name}`, version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    count("list");
    return { tools: TOOLS[name] };
  });
  server.setRequestHandler(CallToolRequestSchema, async (call) => {
    count("call");
    const args = (call.params.arguments ?? {}) as Record<string, unknown>;
    switch (call.params.name) {
      case "lookup_order": {
        const order = { orderId: String(args.orderId), status: "shipped", carrier: "DHL" };
        return { content: [{ type: "text", text: `Order ${order.orderId} has shipped` }], structuredContent: order };
      }
      case "slow_report":
        await new Promise((r) => setTimeout(r, Number(args.ms ?? 3000)));
        return { content: [{ type: "text", text: "slow report done" }] };
      case "fail_report":
        // A tool's own failure, as the specification wants it: a result marked isError, for the model to read.
        return { content: [{ type: "text", text: "the reporting database is down" }], isError: true };
      case "huge_report":
        return { content: [{ type: "text", text: "x".repeat(5 * 1024 * 1024) }] };
      case "vanish":
        await new Promise((r) => setTimeout(r, 100));
        req.socket.destroy();
        return { content: [{ type: "text", text: "never seen" }] };
    }
    throw new Error(`unknown tool ${call.params.name}`);
  });
  return server;
}

export default async function setup(project: TestProject) {
  const log: Record<string, { list: number; call: number }> = {};
  const http: HttpServer = createServer(
    settled(async (req, res) => {
      const name = (req.url ?? "").split("/")[1] ?? "";
      if (name === "log") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(log));
        return;
      }
      if (!TOOLS[name]) {
        res.writeHead(404).end();
        return;
      }
      if (name === "good" && req.headers.authorization !== MCP_TEST_TOKEN) {
        res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
        return;
      }
      let body = "";
      for await (const chunk of req) body += chunk;
      const seen = (log[name] ??= { list: 0, call: 0 });
      const server = mcpServer(name, req, (kind) => seen[kind]++);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => {
        transport.close().catch(() => {});
        server.close().catch(() => {});
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body ? JSON.parse(body) : undefined);
    }),
  );
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  project.provide("mcpServerUrl", `http://127.0.0.1:${(http.address() as { port: number }).port}`);
  return async () => {
    http.closeAllConnections();
    await new Promise((r) => http.close(r));
  };
}
