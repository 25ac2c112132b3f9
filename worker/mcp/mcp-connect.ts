import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { MCP_SECRET_PREFIX, type McpServerConfig } from "../../shared/config/mcp-config.ts";
import { namedSecret } from "../config/named-secret.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { outboundUrlProblem } from "../net/outbound-url.ts";
import { outboundPolicy, outboundRefusal } from "../net/resolved-address.ts";

/**
 * Refuses a server before any request leaves for it, whoever wrote the config (the owner's route
 * checks the same when it is written): an address beside the worker (loopback outside demo mode,
 * private, link-local, cloud metadata), or an auth secret outside the MCP namespace, which would send
 * one of the worker's own secrets to the owner's server.
 */
export function mcpServerRefusal(env: Env, server: McpServerConfig): void {
  const refused = outboundUrlProblem(server.url, Boolean(env.demo));
  if (refused) throw new ApiError(403, "forbidden", `MCP server ${server.id} (${server.url}): ${refused}`);
  if (server.auth && !server.auth.secretName.startsWith(MCP_SECRET_PREFIX))
    throw new ApiError(
      403,
      "forbidden",
      `MCP server ${server.id}: its secret's name must start with ${MCP_SECRET_PREFIX}`,
    );
}

/**
 * A connected MCP client for one operation (a Worker keeps no connection between requests): the
 * official SDK's client over Streamable HTTP, with the auth header from its worker secret. The SDK's
 * default schema validator compiles code at run time, which workerd forbids; its @cfworker one does not.
 */
/** What the server answered over HTTP, if it answered at all: tells "unreachable" from "not MCP". */
export interface AnswerSeen {
  status: number | null;
}

export async function connectMcp(
  env: Env,
  server: McpServerConfig,
  signal: AbortSignal,
  answered?: AnswerSeen,
): Promise<Client> {
  mcpServerRefusal(env, server);
  // The name's DNS answer too, before each connection: a public-looking name may point beside the worker.
  const resolved = await outboundRefusal(server.url, outboundPolicy(env));
  if (resolved)
    throw new ApiError(
      resolved.code === "forbidden" ? 403 : 503,
      resolved.code,
      `MCP server ${server.id} (${server.url}): ${resolved.message}`,
    );
  const headers: Record<string, string> = {};
  if (server.auth) {
    const value = namedSecret(env, server.auth.secretName);
    if (!value) throw new ApiError(503, "misconfigured", `Worker secret ${server.auth.secretName} is not set`);
    headers[server.auth.header] = value;
  }
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    // Redirects are not followed: a 3xx is an error, so a server cannot send the worker elsewhere.
    requestInit: { headers, redirect: "manual", signal },
    // Demo mode answers its own demo server in the worker; any other server is fetched.
    fetch: answered ? observed(env.demo?.mcpFetch(server.url) ?? fetch, answered) : env.demo?.mcpFetch(server.url),
  });
  const client = new Client(
    { name: "parley", version: "1" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  await client.connect(transport, { signal });
  return client;
}

function observed(base: typeof fetch, answered: AnswerSeen): typeof fetch {
  return async (input, init) => {
    const res = await base(input, init);
    if (answered.status === null || !res.ok) answered.status = res.status;
    return res;
  };
}
