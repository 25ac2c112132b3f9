import { MCP_SECRET_PREFIX, type McpServerConfig, type McpServerView } from "../../shared/config/mcp-config.ts";

/** The MCP page's fields as they hold them (pure: tested without a page). */
export interface McpForm {
  id: string;
  url: string;
  header: string;
  secretName: string;
  timeoutMs: string;
}

export const emptyMcpForm = (): McpForm => ({
  id: "",
  url: "",
  header: "authorization",
  secretName: `${MCP_SECRET_PREFIX}`,
  timeoutMs: "",
});

export function mcpForm(s: McpServerView | McpServerConfig): McpForm {
  return {
    id: s.id,
    url: s.url,
    header: s.auth?.header ?? "authorization",
    secretName: s.auth?.secretName ?? MCP_SECRET_PREFIX,
    timeoutMs: s.timeoutMs === undefined ? "" : String(s.timeoutMs),
  };
}

/** What the form sends: no auth when no secret is named; the worker checks every field at its path. */
export function mcpServer(f: McpForm): McpServerConfig {
  const secretName = f.secretName.trim();
  const timeout = f.timeoutMs.trim();
  return {
    id: f.id.trim(),
    url: f.url.trim(),
    ...(secretName && secretName !== MCP_SECRET_PREFIX
      ? { auth: { header: f.header.trim() || "authorization", secretName } }
      : {}),
    ...(timeout ? { timeoutMs: Number.isFinite(Number(timeout)) ? Number(timeout) : (timeout as never) } : {}),
  };
}

/** The list with `server` in place of the one being edited (`editing`: its id), or added at the end. */
export function withServer(list: readonly McpServerConfig[], server: McpServerConfig, editing: string | null) {
  const at = editing === null ? -1 : list.findIndex((s) => s.id === editing);
  const next = list.map(stored);
  if (at < 0) return { servers: [...next, server], index: next.length };
  next[at] = server;
  return { servers: next, index: at };
}

/** A server as the worker stores it (the view's `secretSet` is the worker's to say, not to send back). */
export function stored(s: McpServerView | McpServerConfig): McpServerConfig {
  const { secretSet: _drop, ...config } = s as McpServerView;
  return config;
}

/** An agent's tools text with `name` in it or out of it (the text stays the one list of its tools). */
export function toggleTool(text: string, name: string, on: boolean): string {
  const names = text
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean)
    .filter((x) => x !== name);
  return (on ? [...names, name] : names).join(", ");
}

export const hasTool = (text: string, name: string) => text.split(",").some((x) => x.trim() === name);
