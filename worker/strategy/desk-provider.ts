import type { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { modelTargets } from "../llm/model-targets.ts";
import { callModel, newCallLog } from "../llm/upstream.ts";
import type { UpstreamBody } from "../llm/upstream-body.ts";
import type { DeskCompletion, DeskLlm, DeskRequest } from "./desk-llm.ts";
import { contentText } from "../../shared/chat/message-content.ts";

/** A desk completion's cap: an edit of a strategies text, a review, a verdict. */
const DESK_MAX_TOKENS = 1500;

/**
 * The desk's completions go the chat's way to the provider (callModel: the site's providers and
 * fallbacks, retries, timeouts), not streamed. Offline, demo mode's scripted model plays the
 * editors, the reviewer and the judge; the agents' own answers (regression gate) come from the
 * agent's demo script, as in a chat.
 */
export function deskLlm(env: Env, site: SiteConfig, agent: AgentConfig): DeskLlm {
  const offline = !env.LLM_BASE_URL && !site.providers.length;
  return {
    async complete(req: DeskRequest): Promise<DeskCompletion> {
      if (offline && env.demo && req.role !== "answer") return env.demo.desk(req, Number(env.DEMO_COMPLETION_MS) || 0);
      const body: UpstreamBody = {
        model: agent.model,
        messages: req.messages as UpstreamBody["messages"],
        max_tokens: DESK_MAX_TOKENS,
        ...(req.tools.length ? { tools: req.tools } : {}),
        ...(req.toolChoice ? { tool_choice: { type: "function", function: { name: req.toolChoice } } } : {}),
      };
      const delay = offline && env.demo ? Number(env.DEMO_COMPLETION_MS) || 0 : 0;
      if (delay) await new Promise((r) => setTimeout(r, delay));
      const log = newCallLog();
      const reply = await callModel(env, agent, body, log, modelTargets(site, agent));
      if (reply.kind !== "json")
        throw new ApiError(502, "upstream_error", "Provider streamed an answer the desk asked for whole");
      const message = reply.completion.choices?.[0]?.message;
      return {
        content: contentText(message?.content ?? ""),
        toolCalls: message?.tool_calls ?? [],
        promptTokens: reply.completion.usage?.prompt_tokens ?? 0,
        completionTokens: reply.completion.usage?.completion_tokens ?? 0,
        model: log.model ?? agent.model,
      };
    },
  };
}
