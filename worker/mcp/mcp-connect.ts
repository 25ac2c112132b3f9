import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import type { McpServerConfig } from "../../shared/mcp-config.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";

/**
 * A connected MCP client for one operation (a Worker keeps no connection between requests): the
 * official SDK's client over Streamable HTTP, with the auth header from its worker secret. The SDK's
 * default schema validator compiles code at run time, which workerd forbids; its @cfworker one does not.
 */
export async function connectMcp(env: Env, server: McpServerConfig, signal: AbortSignal): Promise<Client> {
  const headers: Record<string, string> = {};
  if (server.auth) {
    const value = (env as unknown as Record<string, unknown>)[server.auth.secretName];
    if (typeof value !== "string" || !value)
      throw new ApiError(503, "misconfigured", `Worker secret ${server.auth.secretName} is not set`);
    headers[server.auth.header] = value;
  }
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    // Redirects are not followed: a 3xx is an error, so a server cannot send the worker elsewhere.
    requestInit: { headers, redirect: "manual", signal },
    // Demo mode answers its own demo server in the worker; any other server is fetched.
    fetch: env.demo?.mcpFetch(server.url),
  });
  const client = new Client(
    { name: "parley", version: "1" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  await client.connect(transport, { signal });
  return client;
}
