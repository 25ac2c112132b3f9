import { env } from "cloudflare:workers";
import type { AgentConfigInput } from "../../../shared/config/agent-config.ts";

/** The agent the MCP tests hand a server's tools to (`mcp__<server>__<tool>`), written to KV under `id`. */
export async function putOrdersAgent(id: string, tools: string[]): Promise<void> {
  const config: AgentConfigInput = {
    id,
    name: { en: "Orders", "zh-CN": "订单" },
    description: { en: "", "zh-CN": "" },
    greeting: { en: "Hi", "zh-CN": "你好" },
    systemPrompt: "You answer questions about orders.",
    model: "gpt-4o-mini",
    tools,
  };
  await env.CONFIG.put(`agent:${id}`, JSON.stringify(config));
}
