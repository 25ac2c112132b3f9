import { z } from "zod/mini";
import { McpServerConfig } from "../config/mcp-config.ts";

/** "Test connection": one server as the owner's form holds it, saved or not. */
export const McpProbeInput = z.object({ server: McpServerConfig });
export type McpProbeInput = z.input<typeof McpProbeInput>;

/** Why a server's tools could not be listed, as the console names it. */
export const MCP_PROBE_FAILURES = ["refused", "secret_missing", "unreachable", "unauthorized", "not_mcp"] as const;
export type McpProbeFailure = (typeof MCP_PROBE_FAILURES)[number];

/** One tool a server lists: its allowlist name (`mcp__<server>__<tool>`), and why it is not offered, if it is not. */
export interface McpToolView {
  name: string | null;
  tool: string;
  description: string;
  problem: string | null;
}

/** A server's tools, listed from the worker, or why they could not be. */
export interface McpProbe {
  id: string;
  ok: boolean;
  tools: McpToolView[];
  failure: { kind: McpProbeFailure; message: string } | null;
  ms: number;
}
