import { describe, expect, it } from "vitest";
import { emptyMcpForm, mcpForm, mcpServer, toggleTool, withServer } from "../../console/pages/mcp-form.ts";
import { McpServerConfig } from "../../shared/config/mcp-config.ts";

describe("the MCP servers page's form", () => {
  it("sends no auth for an unnamed secret, and the named one with its header otherwise", () => {
    const empty = { ...emptyMcpForm(), id: " orders ", url: " https://mcp.example.com/mcp " };
    expect(mcpServer(empty)).toEqual({ id: "orders", url: "https://mcp.example.com/mcp" });
    const named = mcpServer({ ...empty, secretName: "MCP_ORDERS_TOKEN", header: "", timeoutMs: "5000" });
    expect(McpServerConfig.parse(named)).toEqual({
      id: "orders",
      url: "https://mcp.example.com/mcp",
      auth: { header: "authorization", secretName: "MCP_ORDERS_TOKEN" },
      timeoutMs: 5000,
    });
    expect(mcpServer(mcpForm({ ...named, secretSet: true }))).toEqual(named);
  });

  it("replaces the edited server in place, adds a new one at the end, and never sends secretSet back", () => {
    const a = { id: "a", url: "https://a.example/mcp", secretSet: false };
    const b = { id: "b", url: "https://b.example/mcp", secretSet: true };
    const edited = withServer([a, b], { id: "b2", url: "https://b.example/v2" }, "b");
    expect(edited).toEqual({
      servers: [
        { id: "a", url: "https://a.example/mcp" },
        { id: "b2", url: "https://b.example/v2" },
      ],
      index: 1,
    });
    expect(withServer([a], { id: "c", url: "https://c.example" }, null).index).toBe(1);
  });

  it("toggles a tool in the agent's tools text, which stays the one list", () => {
    const text = "knowledge_search, mcp__orders__lookup_order";
    expect(toggleTool(text, "mcp__orders__refund_order", true)).toBe(
      "knowledge_search, mcp__orders__lookup_order, mcp__orders__refund_order",
    );
    expect(toggleTool(text, "mcp__orders__lookup_order", false)).toBe("knowledge_search");
    expect(toggleTool("", "mcp__x__y", true)).toBe("mcp__x__y");
  });
});
