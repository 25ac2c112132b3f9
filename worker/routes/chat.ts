import { Hono } from "hono";
import { ChatRequest, type ChatCompletion } from "../../shared/chat.ts";
import { HEADERS } from "../../shared/protocol.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { sessionToken } from "../middleware/session-token.ts";
import { checkSiteOrigin } from "../middleware/site-origin.ts";
import { loadAgent } from "../config/config-store.ts";
import { callModel } from "../llm/upstream.ts";
import { upstreamBody } from "../llm/upstream-body.ts";
import { relayStream } from "../llm/relay.ts";
import type { AccumulatedReply } from "../llm/reply-accumulator.ts";
import { newInputEvents, replyEvent, routeTraceEvent } from "../session/message-events.ts";
import { sessionRoom } from "../session/session-stub.ts";

export const chatRoutes = new Hono<AppEnv>();

/**
 * OpenAI-compatible chat completions. The request goes upstream before anything is awaited from
 * storage (the token and cached config are all it needs); the session records the new input and,
 * from the same bytes the client receives, the reply.
 */
chatRoutes.post("/v1/chat/completions", sessionToken(), jsonBody(ChatRequest), async (c) => {
  const req = c.req.valid("json");
  const claims = c.var.claims;
  if (req.messages.some((m) => m.role === "system")) {
    throw new ApiError(400, "validation_failed", "messages: role \"system\" is not accepted; the agent's system prompt is set on the server");
  }
  const [, agent] = await Promise.all([checkSiteOrigin(c, claims.site, false), loadAgent(c.env, claims.agent)]);
  if (!agent) throw new ApiError(404, "unknown_agent", `Agent ${claims.agent} no longer exists`);
  if (req.model !== undefined && req.model !== agent.model) {
    throw new ApiError(400, "model_not_allowed", `Model ${JSON.stringify(req.model)} is not allowed for this agent`);
  }

  const room = sessionRoom(c.env, claims.sid);
  const inputsStored = room.append(newInputEvents(req.messages));
  c.executionCtx.waitUntil(inputsStored.catch(() => {}));
  const replyId = req.parley?.replyId ?? crypto.randomUUID();
  const purpose = req.parley?.purpose ?? "chat";
  const started = Date.now();
  // A router classification is a decision about the turn, not part of the conversation.
  const record = (reply: AccumulatedReply, cut: boolean) =>
    c.executionCtx.waitUntil(
      inputsStored
        .then(() => room.append([purpose === "classify" ? routeTraceEvent(replyId, reply, Date.now() - started) : replyEvent(replyId, reply, cut)]))
        .catch(() => {}),
    );

  // Only stage workflows need the session's state in the prompt; other agents skip the read.
  const state = agent.stages.length ? await room.getState() : undefined;
  const upstream = await callModel(c.env, agent, upstreamBody(req, agent, state));
  const headers = { [HEADERS.replyId]: replyId, [HEADERS.sessionId]: claims.sid };

  if (!req.stream) {
    const completion = (await upstream.json().catch(() => {
      throw new ApiError(502, "upstream_error", "Provider answered with a body that is not JSON");
    })) as ChatCompletion;
    const message = completion.choices?.[0]?.message;
    record({
      content: message?.content ?? "",
      toolCalls: message?.tool_calls ?? [],
      usage: completion.usage ?? null,
      finishReason: completion.choices?.[0]?.finish_reason ?? null,
      complete: true,
    }, false);
    return c.json(completion, 200, headers);
  }
  if (!upstream.body) throw new ApiError(502, "upstream_error", "Provider answered without a body");
  return new Response(relayStream(upstream.body, record), {
    headers: { ...headers, "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" },
  });
});
