import type { McpServerConfig } from "../../shared/config/mcp-config.ts";
import type { McpProbe, McpProbeFailure } from "../../shared/admin/mcp-probe.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import type { AnswerSeen } from "./mcp-connect.ts";
import { errorText, listMcpTools } from "./mcp-tools.ts";

/**
 * A server's tools as the worker lists them (within the turn's 5 s), or which kind of failure kept
 * them from it, for the console: a refused address or secret (nothing was sent), a server that did not
 * answer, one that refused the auth header, or one that answered but not as an MCP server.
 */
export async function probeMcpServer(
  env: Env,
  siteKey: string,
  server: McpServerConfig,
  fresh: boolean,
): Promise<McpProbe> {
  const started = Date.now();
  const answered: AnswerSeen = { status: null };
  const failed = (kind: McpProbeFailure, message: string): McpProbe => ({
    id: server.id,
    ok: false,
    tools: [],
    failure: { kind, message: message.slice(0, 400) },
    ms: Date.now() - started,
  });
  try {
    const listing = await listMcpTools(env, siteKey, server, fresh, answered);
    return { id: server.id, ok: true, tools: listing.listed, failure: null, ms: Date.now() - started };
  } catch (err) {
    if (err instanceof ApiError) {
      const kind =
        err.code === "misconfigured" ? "secret_missing" : err.code === "dns_unavailable" ? "unreachable" : "refused";
      return failed(kind, err.message);
    }
    const status = answered.status;
    if (status === null) return failed("unreachable", `${server.url} did not answer: ${errorText(err)}`);
    if (status === 401 || status === 403)
      return failed("unauthorized", `${server.url} refused the auth header (HTTP ${status})`);
    return failed("not_mcp", `${server.url} answered, but not as an MCP server (HTTP ${status}): ${errorText(err)}`);
  }
}
