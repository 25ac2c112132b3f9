import type { SiteConfig } from "../../shared/config/agent-config.ts";
import { parseMcpToolName } from "../../shared/config/mcp-config.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { connectMcp } from "./mcp-connect.ts";
import { errorText, listMcpTools } from "./mcp-tools.ts";

const DEFAULT_TIMEOUT_MS = 15_000;
/** The largest result the model is handed as an observation; larger ones are an error it can act on. */
export const MAX_RESULT_CHARS = 200_000;

/**
 * Runs an allowlisted MCP tool on the worker (the route checked the allowlist) with its server's
 * timeout. The observation is the result's text, and its structured content when there is some.
 * A tool error, a timeout, a server gone mid-call or an oversized result is an ApiError whose
 * message names what failed: the widget hands it to the model, and the conversation goes on.
 */
export async function callMcpTool(env: Env, site: SiteConfig, name: string, args: unknown) {
  const ref = parseMcpToolName(name);
  const server = ref && site.mcpServers.find((s) => s.id === ref.server);
  if (!ref || !server) throw new ApiError(404, "not_found", `No MCP server for ${name}`);
  const timeoutMs = server.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // A tool the cached list does not have yet: the server's list changed, so it is read again.
  if (!(await listMcpTools(env, site.siteKey, server)).tools.has(name)) {
    const fresh = await listMcpTools(env, site.siteKey, server, true);
    if (!fresh.tools.has(name)) throw new ApiError(404, "not_found", `MCP server ${server.id} has no tool ${ref.tool}`);
  }
  const signal = AbortSignal.timeout(timeoutMs);
  let result;
  const client = await connectMcp(env, server, signal).catch((err) => {
    if (err instanceof ApiError) throw err;
    throw new ApiError(502, "tool_failed", `MCP server ${server.id} could not be reached: ${errorText(err)}`);
  });
  try {
    const input = typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {};
    result = await client.callTool({ name: ref.tool, arguments: input }, undefined, { signal, timeout: timeoutMs });
  } catch (err) {
    const timedOut = signal.aborted || /timed? ?out/i.test(errorText(err));
    throw new ApiError(
      timedOut ? 504 : 502,
      "tool_failed",
      timedOut
        ? `${ref.tool} on MCP server ${server.id} did not finish within ${timeoutMs} ms`
        : `${ref.tool} on MCP server ${server.id} failed: ${errorText(err)}`,
    );
  } finally {
    await client.close().catch(() => {});
  }
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content.map((c) => (c.type === "text" ? c.text : `[${c.type} content]`)).join("\n");
  const observation = {
    text,
    ...(result.structuredContent ? { structured: result.structuredContent } : {}),
  };
  const size = JSON.stringify(observation).length;
  if (size > MAX_RESULT_CHARS)
    throw new ApiError(
      502,
      "tool_failed",
      `${ref.tool} on MCP server ${server.id} returned ${size} characters, more than the ${MAX_RESULT_CHARS} allowed`,
    );
  if (result.isError)
    throw new ApiError(
      502,
      "tool_failed",
      `${ref.tool} on MCP server ${server.id} reported an error: ${text.slice(0, 500)}`,
    );
  return observation;
}
