import type { AgentConfig } from "../../shared/config/agent-config.ts";
import { CLIENT_SAMPLING_FIELDS, type ChatMessage, type ChatRequest } from "../../shared/chat/chat.ts";
import { toOpenAITool, type OpenAITool } from "../../shared/tools/tool.ts";
import { classifyIntent } from "../../shared/tools/classify-intent.ts";
import { askForPerson as askForPersonTool } from "../../shared/tools/ask-for-person.ts";
import { escalateEmergency } from "../../shared/tools/escalate-emergency.ts";
import { stageDataTool } from "../../shared/tools/record-stage-data.ts";
import type { SessionState } from "../../shared/session/session.ts";
import { stageById } from "../../shared/stages/stage-machine.ts";
import { ApiError } from "../errors.ts";
import { parseMcpToolName } from "../../shared/config/mcp-config.ts";
import { leadCardOf } from "../../shared/stages/stage-lead.ts";
import { TOOL_NAMES } from "../../shared/tools/tool-names.ts";
import {
  ESCALATION_INSTRUCTIONS,
  HYBRID_INSTRUCTIONS,
  quickInstructions,
  reactInstructions,
  routerPrompt,
  stagePrompt,
  systemPromptFor,
} from "./prompts.ts";
import { TOOL_DEFS } from "./tool-definitions.ts";

export type UpstreamBody = Record<string, unknown> & {
  messages: Array<Omit<ChatMessage, "id">>;
  stream?: boolean;
  tools?: OpenAITool[];
};

/**
 * Never sent to a provider, whoever sets them (a profile's extra body too; a client's are dropped with
 * every other field it may not set): `n` above 1 multiplies a turn's cost past what its budget
 * reserved, `store` keeps the conversation at the provider, `functions`/`function_call` would offer
 * tools the agent does not have.
 */
export const NEVER_FORWARDED = ["n", "store", "functions", "function_call"] as const;

let askTool: OpenAITool | undefined;
let escalateTool: OpenAITool | undefined;

// JSON schemas are derived once per tool per isolate, not on every request.
const schemaCache = new Map<string, OpenAITool>();
function openAITool(name: string): OpenAITool {
  let tool = schemaCache.get(name);
  if (!tool) {
    const def = name === classifyIntent.name ? classifyIntent : TOOL_DEFS[name];
    if (!def) throw new ApiError(502, "misconfigured", `Agent names unknown tool ${name}`);
    tool = toOpenAITool(def);
    schemaCache.set(name, tool);
  }
  return tool;
}

/**
 * The tools a chat turn offers: the agent's, and for a stage workflow the current stage's extraction tool and
 * tools.
 */
function turnTools(
  agent: AgentConfig,
  state?: SessionState,
  askForPerson = false,
  mcpTools: readonly OpenAITool[] = [],
): OpenAITool[] {
  // MCP tools come with their servers' schemas (mcp/mcp-tools.ts), listed for this turn.
  const own = (name: string) => !parseMcpToolName(name);
  const tools = [...agent.tools.filter(own).map(openAITool), ...mcpTools];
  // Takeover: offered when the site enables it, whatever the agent lists.
  if (askForPerson) tools.push((askTool ??= toOpenAITool(askForPersonTool)));
  const stage = state && stageById(agent.stages, state.stage.current);
  if (stage) {
    const key = `record_stage_data:${agent.id}:${stage.id}`;
    let extract = schemaCache.get(key);
    if (!extract) schemaCache.set(key, (extract = toOpenAITool(stageDataTool(stage))));
    tools.push(extract, ...stage.tools.filter((t) => own(t) && !agent.tools.includes(t)).map(openAITool));
    // A stage with a lead card: the model may raise it in the chat (the visitor fills and sends it).
    if (leadCardOf(stage)) tools.push(openAITool(TOOL_NAMES.offerLeadCard));
  }
  return tools;
}

/**
 * The request the provider receives, built field by field: the server decides the system prompt and
 * the tools from the agent config and the purpose (a client's own `tools`/`tool_choice` are not
 * forwarded, so a visitor cannot turn the proxy into a general-purpose model endpoint); of the client's
 * fields only the sampling ones the request schema lists (CLIENT_SAMPLING_FIELDS), `stream` and the
 * capped token limit go along.
 */
export function upstreamBody(
  req: ChatRequest,
  agent: AgentConfig,
  state?: SessionState,
  /** `escalationTool`: offer escalate_emergency, which the worker runs (guard/model-escalation.ts). */
  opts: { askForPerson?: boolean; escalationTool?: boolean; mcpTools?: readonly OpenAITool[] } = {},
): UpstreamBody {
  const { parley, messages } = req;
  const purpose = parley?.purpose ?? "chat";
  const body: UpstreamBody = { model: agent.model, messages: [] };
  for (const field of CLIENT_SAMPLING_FIELDS) if (req[field] !== undefined) body[field] = req[field];
  if (req.stream !== undefined) body.stream = req.stream;
  let system: string;
  if (purpose === "classify") {
    if (!agent.router) throw new ApiError(400, "bad_request", `Agent ${agent.id} has no router`);
    system = routerPrompt(agent.router);
    body.tools = [openAITool(classifyIntent.name)];
    body.tool_choice = { type: "function", function: { name: classifyIntent.name } };
  } else if (purpose === "quick") {
    system = systemPromptFor(agent, [quickInstructions(parley?.sources ?? "")]);
  } else {
    const tools = turnTools(agent, state, opts.askForPerson, opts.mcpTools);
    const stages = state && agent.stages.length ? stagePrompt(agent, state) : "";
    if (tools.length && agent.strategy === "text-react") {
      system = systemPromptFor(agent, [stages, reactInstructions(tools)]);
    } else {
      system = systemPromptFor(agent, [stages, agent.strategy === "hybrid" ? HYBRID_INSTRUCTIONS : ""]);
      if (tools.length) body.tools = tools;
    }
  }
  if (opts.escalationTool && purpose !== "classify") {
    // The quick path offers no other tool: the worker answers this one itself, so its answer stays one reply.
    body.tools = [...(body.tools ?? []), (escalateTool ??= toOpenAITool(escalateEmergency))];
    system = `${system}\n\n${ESCALATION_INSTRUCTIONS}`;
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
