import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import * as webTransport from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/** The demo site's MCP server address: a reserved name (.invalid), answered in the worker, never on the network. */
export const DEMO_MCP_URL = "https://mcp.parley-demo.invalid/mcp";

const STOCK: Record<string, { units: number; warehouse: string }> = {
  "hydra-calm": { units: 240, warehouse: "Rotterdam" },
  "barrier-repair": { units: 0, warehouse: "Rotterdam" },
  "sun-shield-50": { units: 1_150, warehouse: "Shanghai" },
};

const TOOLS = [
  {
    name: "product_stock",
    description: "Units in stock of one of the company's products, and the warehouse that ships it.",
    inputSchema: {
      type: "object",
      properties: { product: { type: "string", enum: Object.keys(STOCK), description: "The product's code" } },
      required: ["product"],
    },
  },
];

function demoServer(): Server {
  const server = new Server({ name: "parley-demo-warehouse", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const product = String((req.params.arguments ?? {}).product ?? "");
    const row = STOCK[product];
    if (req.params.name !== "product_stock" || !row)
      return { content: [{ type: "text", text: `No product ${JSON.stringify(product)}` }], isError: true };
    const text = row.units ? `${row.units} units of ${product} in ${row.warehouse}` : `${product} is out of stock`;
    return { content: [{ type: "text", text }], structuredContent: { product, ...row } };
  });
  return server;
}

/**
 * The demo's MCP server, as the official SDK runs one over Streamable HTTP (stateless, a server per
 * request): the worker's MCP client reaches it through this fetch, so the demo needs no network.
 */
export async function demoMcpFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const transport = new webTransport.WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const server = demoServer();
  await server.connect(transport);
  return transport.handleRequest(new Request(input, init));
}
