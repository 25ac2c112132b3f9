import type { AgentConfig } from "../../shared/agent-config.ts";
import type { ChatMessage, ChatRequest } from "../../shared/chat.ts";
import { toOpenAITool, type OpenAITool } from "../../shared/tool.ts";
import { TOOLS } from "../../shared/tools/index.ts";
import { classifyIntent } from "../../shared/tools/classify-intent.ts";
import { ApiError } from "../errors.ts";
import { HYBRID_INSTRUCTIONS, quickInstructions, reactInstructions, routerPrompt, systemPromptFor } from "./prompts.ts";

export type UpstreamBody = Record<string, unknown> & {
  messages: Array<Omit<ChatMessage, "id">>;
  stream?: boolean;
  tools?: OpenAITool[];
};

// JSON schemas are derived once per tool per isolate, not on every request.
const schemaCache = new Map<string, OpenAITool>();
function openAITool(name: string): OpenAITool {
  let tool = schemaCache.get(name);
  if (!tool) {
    const def = name === classifyIntent.name ? classifyIntent : TOOLS[name];
    if (!def) throw new ApiError(502, "misconfigured", `Agent names unknown tool ${name}`);
    tool = toOpenAITool(def);
    schemaCache.set(name, tool);
  }
  return tool;
}

/**
 * The request the provider receives. The server decides the system prompt and the tools from the
 * agent config and the purpose; a client's own `tools`/`tool_choice` are not forwarded, so a
 * visitor cannot turn the proxy into a general-purpose model endpoint.
 */
export function upstreamBody(req: ChatRequest, agent: AgentConfig): UpstreamBody {
  const { parley, messages, tools: _t, tool_choice: _tc, ...rest } = req;
  const purpose = parley?.purpose ?? "chat";
  const body: UpstreamBody = { ...rest, model: agent.model, messages: [] };
  let system: string;
  if (purpose === "classify") {
    if (!agent.router) throw new ApiError(400, "bad_request", `Agent ${agent.id} has no router`);
    system = routerPrompt(agent.router);
    body.tools = [openAITool(classifyIntent.name)];
    body.tool_choice = { type: "function", function: { name: classifyIntent.name } };
  } else if (purpose === "quick") {
    system = systemPromptFor(agent, [quickInstructions(parley?.sources ?? "")]);
  } else if (agent.tools.length && agent.strategy === "text-react") {
    system = systemPromptFor(agent, [reactInstructions(agent.tools.map(openAITool))]);
  } else {
    system = systemPromptFor(agent, agent.strategy === "hybrid" ? [HYBRID_INSTRUCTIONS] : []);
    if (agent.tools.length) body.tools = agent.tools.map(openAITool);
  }
  body.messages = [{ role: "system", content: system }, ...messages.map(stripId)];
  const cap = agent.maxTokens;
  if (req.max_completion_tokens !== undefined) body.max_completion_tokens = Math.min(req.max_completion_tokens, cap);
  else body.max_tokens = Math.min(req.max_tokens ?? cap, cap);
  // Usage in the stream is what the session's token budget counts.
  if (req.stream) body.stream_options = { include_usage: true };
  return body;
}

function stripId(m: ChatMessage): Omit<ChatMessage, "id"> {
  const { id: _id, ...rest } = m;
  return rest;
}
