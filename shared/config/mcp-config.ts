import { z } from "zod/mini";

/**
 * An MCP server a site's agents may use (Streamable HTTP). The auth header's value is a worker
 * secret named here (`wrangler secret put`), never stored in the config nor sent to a browser.
 */
export const McpServerConfig = z.object({
  id: z.string().check(z.regex(/^[a-z0-9][a-z0-9-]{0,23}$/)),
  url: z.string().check(z.regex(/^https?:\/\//), z.maxLength(2000)),
  auth: z.optional(
    z.object({
      header: z._default(z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9-]{0,63}$/)), "authorization"),
      /** The env binding holding the header's whole value (`Bearer …` for an authorization header). */
      secretName: z.string().check(z.regex(/^[A-Z][A-Z0-9_]{2,63}$/)),
    }),
  ),
  /** ms a tool call may take before its observation says it timed out (default 15 000). */
  timeoutMs: z.optional(z.int().check(z.gte(100), z.lte(60_000))),
});
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/**
 * The start every MCP auth secret's name must have: the worker sends the named secret to the server's
 * URL, which the owner sets, so the name may not be one of the worker's own secrets.
 */
export const MCP_SECRET_PREFIX = "MCP_";

/**
 * How an MCP tool is named to the model and in an agent's `tools` allowlist: `mcp__<server>__<tool>`
 * (OpenAI function names allow letters, digits, `_` and `-`, 64 at most).
 */
export const MCP_PREFIX = "mcp__";
const TOOL_PART = /^[A-Za-z0-9_-]{1,40}$/;

export function mcpToolName(server: string, tool: string): string | null {
  return TOOL_PART.test(tool) ? `${MCP_PREFIX}${server}__${tool}` : null;
}

export function parseMcpToolName(name: string): { server: string; tool: string } | null {
  const m = /^mcp__([a-z0-9][a-z0-9-]{0,23})__([A-Za-z0-9_-]{1,40})$/.exec(name);
  return m ? { server: m[1], tool: m[2] } : null;
}

/** The owner's list of MCP servers, replaced whole (PUT /v1/admin/mcp-servers). */
export const McpServersInput = z.object({ servers: z.array(McpServerConfig).check(z.maxLength(10)) });
export type McpServersInput = z.input<typeof McpServersInput>;

/** A server as the owner reads it back: whether its auth secret is set on the worker, never its value. */
export type McpServerView = McpServerConfig & { secretSet: boolean };
