import { Hono } from "hono";
import { ChatRequest, type ChatCompletion } from "../../shared/chat.ts";
import { HEADERS, STREAM_EXTENSION } from "../../shared/protocol.ts";
import type { SessionEvent } from "../../shared/session.ts";
import * as ROUTES from "../../shared/routes.ts";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorCode } from "../../shared/errors.ts";
import type { AppEnv, Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { sessionToken } from "../middleware/session-token.ts";
import { checkSiteOrigin } from "../middleware/site-origin.ts";
import { loadSessionAgent } from "../config/config-store.ts";
import { admitLocally, admitSession, sessionRefusal } from "../limits/admission.ts";
import { chatConsent } from "../config/consent-notice.ts";
import { noteRefusal, recentlyRefused } from "../limits/refusals.ts";
import { turnReserve } from "../limits/turn-cost.ts";
import { callModel, modelName, newCallLog } from "../llm/upstream.ts";
import type { ModelReply } from "../llm/model-reply.ts";
import { upstreamBody } from "../llm/upstream-body.ts";
import { modelTargets, type ModelTarget } from "../llm/model-targets.ts";
import { completionReply } from "../../shared/reply-fold.ts";
import { STAFF_MESSAGE_PREFIX } from "../../shared/takeover-api.ts";
import { withStaffTurns } from "../session/staff-turns.ts";
import { newInputEvents } from "../session/message-events.ts";
import { turnIds } from "../session/message-ids.ts";
import { bookingToolNames } from "../booking/booking-calendar.ts";
import { DRAIN_MS } from "../session/live-reply.ts";
import { completionEvents, failureEvents, turnAgent, type Turn, type TurnInfo } from "../session/turn-record.ts";
import type { OwnerNote } from "../session/owner-notes.ts";
import { resolvePhotoParts } from "../photos/photo-parts.ts";
import { agentSystemPrompt, configPrompt, promptVersions } from "../prompts/agent-prompt-cache.ts";
import { guardChatRequest, withGuardNote } from "../guard/chat-guard.ts";
import { guardedCompletion } from "../guard/escalation-completion.ts";
import { startReplyGuard } from "../guard/reply-guard.ts";
import { escalationIn } from "../guard/turn-guard.ts";
import { mcpToolsForTurn } from "../mcp/mcp-tools.ts";
import { mcpProblemSteps } from "../mcp/mcp-trace.ts";
import { sessionRoom } from "../objects.ts";

export const chatRoutes = new Hono<AppEnv>();
const noop = () => {};
const isStaffId = (id: string | undefined) => !!id?.startsWith(STAFF_MESSAGE_PREFIX);

/**
 * OpenAI-compatible chat completions. Before the provider is called: the token, the cached config,
 * the guard, and the IP's rate and the site's budget from this isolate's slices; the session's own
 * limits (its object, one call) are checked while the provider's request starts, and a refused turn
 * aborts it. Nothing is stored or relayed for a refused request. The session records the new input
 * and, from the same bytes the client receives, the reply, its usage (counted into the session and
 * the site's day) and the completion's trace steps. A streamed reply is run by the session's object
 * (reply-runner.ts), which checks the session's limits as it starts it: one call, and the reply
 * outlives the visitor's page (the live channel, routes/live.ts).
 */
chatRoutes.post(ROUTES.chat, sessionToken(), jsonBody(ChatRequest), async (c) => {
  const req = c.req.valid("json");
  const claims = c.var.claims;
  if (req.messages.some((m) => m.role === "system")) {
    throw new ApiError(
      400,
      "validation_failed",
      'messages: role "system" is not accepted; the agent\'s system prompt is set on the server',
    );
  }
  // Staff messages are the worker's (takeover): a visitor message or a reply may not claim one's id and replace it.
  const replyId = req.parley?.replyId ?? crypto.randomUUID();
  if ([replyId, ...req.messages.map((m) => (m.role !== "assistant" ? m.id : ""))].some(isStaffId))
    throw new ApiError(403, "forbidden", `Message ids starting ${STAFF_MESSAGE_PREFIX} are staff messages'`);
  const [site, agent] = await Promise.all([checkSiteOrigin(c, claims.site, false), loadSessionAgent(c.env, claims)]);
  if (!agent) throw new ApiError(404, "unknown_agent", `Agent ${claims.agent} no longer exists`);
  // The site's allowlist, or only the agent's own model; the agent's model is always allowed.
  if (req.model !== undefined && req.model !== agent.model && !site.models.includes(req.model)) {
    throw new ApiError(400, "model_not_allowed", `Model ${JSON.stringify(req.model)} is not allowed for this agent`);
  }
  // Only stage workflows need the session's state in the prompt (the admission brings it along);
  // non-streamed turns of the others send the provider's request while the session's object admits them.
  // The compiled prompt is an isolate-cache read (a registry round trip at most every 5 s). Emergencies
  // are recognised before the provider is called, whatever the model will say.
  const stateful = agent.stages.length > 0;
  const withParts = req.messages.some((m) => typeof m.content !== "string" && m.content);
  // The agent's consent notice, where it asks one: the session must have agreed to its current version.
  const notice = chatConsent(site, agent);
  const consent = notice ? [notice] : [];
  // A plain streamed turn is admitted by the session's object as it starts the reply (no call here);
  // with a consent notice, before the guard's classifier or the provider reads the visitor's words.
  const inRoom = req.stream === true && !stateful && !withParts && !notice;
  // A site with takeover reads the state too: after a hand back the model gets what staff said.
  const takeover = site.takeover.enabled;
  // The reply's id and the new messages' must name new messages, not stored ones (message-ids.ts).
  const inputs = newInputEvents(req.messages);
  const ids = turnIds(replyId, inputs);
  const admitted = inRoom
    ? Promise.resolve(undefined)
    : admitSession(c, site, claims, true, stateful || takeover, ids, consent);
  admitted.catch(noop);
  if (notice) await admitted;
  const guard = guardChatRequest(c.env, c.req.raw, site, agent, req);
  // The site's MCP servers list their tools while the prompt is read (cached; a server down costs its tools only).
  const mcp = mcpToolsForTurn(c.env, site, agent);
  mcp.catch(noop);
  // A draft is tried with its own prompt text: the registry holds the published agent's versions.
  const prompt = await (claims.draft
    ? configPrompt(agent)
    : agentSystemPrompt(c.env, site.siteKey, agent, (p) => c.executionCtx.waitUntil(p)));
  const state = stateful ? await admitted : undefined;

  const room = sessionRoom(c.env, claims.sid);
  const purpose = req.parley?.purpose ?? "chat";
  const callId = crypto.randomUUID();
  const started = Date.now();

  const maxTokens = Math.min(agent.maxTokens, site.maxTokens ?? agent.maxTokens);
  // An agent that books visits is offered the booking tools when its site connects a calendar.
  const booking = bookingToolNames(agent, site).filter((t) => !agent.tools.includes(t));
  const capped = { ...agent, systemPrompt: prompt.text, maxTokens, tools: [...agent.tools, ...booking] };
  const escalationTool = guard.plan?.tool ?? false;
  const { tools: mcpTools, problems } = await mcp;
  if (problems.length) c.executionCtx.waitUntil(room.append(mcpProblemSteps(problems)).catch(noop));
  const body = upstreamBody(req, capped, state, { askForPerson: takeover, escalationTool, mcpTools });
  const sentIds = req.messages.map((m) => m.id);
  if (req.model !== undefined) body.model = req.model;
  withGuardNote(body, guard);
  // Measured before photos become data URLs: an image costs the model its own count of tokens.
  const json = JSON.stringify(body);
  // Photos are read from storage only for an admitted turn.
  if (withParts) await admitted;
  const photos = await resolvePhotoParts(c.env, site, agent, claims.sid, body);
  // The model asked for, then the site's fallbacks (those that can see, for photos); a model unfit
  // for the agent is a config error.
  const targets = modelTargets(site, agent, req.model).filter((t, i) => i === 0 || !photos || t.caps.vision);
  const log = newCallLog();
  const model = () => log.model ?? modelName(c.env, { ...agent, model: body.model as string });
  // The IP's rate and the site's budget from this isolate's slices: no Durable Object call per turn.
  const reservation = await admitLocally(c, site, turnReserve(body, json, photos));
  const headers = { [HEADERS.replyId]: replyId, [HEADERS.sessionId]: claims.sid };

  if (body.stream) {
    const turn: Turn = {
      callId,
      replyId,
      purpose,
      started,
      siteKey: site.siteKey,
      agent: turnAgent(agent),
      site: { safety: site.safety },
      body,
      targets,
      defaultModel: model(),
      prompt: promptVersions(prompt),
      inputs: [...inputs, ...guard.events],
      ...(guard.plan ? { guard: guard.plan } : {}),
      env: providerSettings(c.env, targets),
      ids: sentIds,
      tab: req.parley?.tab,
      ...(inRoom
        ? { limits: { perMinute: site.rateLimits.sessionPerMinute, tokenBudget: site.budgets.perSession } }
        : {}),
    };
    let start;
    try {
      await admitted;
      start = await room.streamReply(turn);
    } catch (err) {
      reservation?.settle(0);
      noteRefusal(claims.sid, err);
      throw err;
    }
    if (!start.ok) {
      reservation?.settle(0);
      if ("refused" in start) {
        const refusal = sessionRefusal(site, start.refused);
        noteRefusal(claims.sid, refusal);
        throw refusal;
      }
      const status = start.status as ContentfulStatusCode;
      throw new ApiError(status, start.code as ErrorCode, start.message, start.extra, start.headers);
    }
    // The tokens go back to this isolate's slice once the reply has ended (the object reports them).
    // A cut reply's response breaks here, once its reader had time to take what came (live-reply.ts).
    const cutOff = new AbortController();
    const { readable, writable } = new IdentityTransformStream();
    void start.body.pipeTo(writable, { signal: cutOff.signal }).catch(noop);
    c.executionCtx.waitUntil(
      start.spent().then(
        ({ tokens, cut }) => {
          reservation?.settle(tokens);
          if (cut)
            return new Promise((r) => setTimeout(r, DRAIN_MS)).then(() =>
              cutOff.abort(new Error("The provider's stream broke off")),
            );
        },
        () => {
          reservation?.settle(0);
          cutOff.abort(new Error("The reply ended without its tokens counted"));
        },
      ),
    );
    return new Response(readable, {
      headers: {
        ...headers,
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
      },
    });
  }

  // The guard's classifier starts with the provider's request (reply-guard.ts), not before it.
  const replyGuard = guard.plan && startReplyGuard(guard.plan, site.safety, agent.model);
  // Sent before the session's admission is back, unless this session was refused here lately: a
  // refused turn aborts the request (the provider may still count its prompt), and nothing of the
  // reply is passed on, nor anything stored, before the admission passes.
  const cancel = new AbortController();
  const call = () => {
    const p = callModel(c.env, agent, body, log, targets, cancel.signal);
    // Handled below once the admission is back; a failure before then is not an unhandled one.
    p.catch(noop);
    return p;
  };
  // Not before the admission where a person may handle the conversation: nothing reaches the model then.
  let upstreamCall = stateful || withParts || takeover || recentlyRefused(claims.sid) ? undefined : call();
  try {
    const seen = await admitted;
    if (takeover && seen) withStaffTurns(body, sentIds, seen);
  } catch (err) {
    cancel.abort();
    upstreamCall?.then((r) => (r.kind === "stream" ? r.stream.abort?.() : undefined), noop);
    reservation?.settle(0);
    noteRefusal(claims.sid, err);
    throw err;
  }
  upstreamCall ??= call();

  // Not streamed: nothing to resume; the route calls the provider and stores the whole reply.
  const jsonTurn: TurnInfo = {
    callId,
    replyId,
    purpose,
    started,
    agent,
    site,
    body,
    defaultModel: model(),
    prompt: promptVersions(prompt),
  };
  // The session stores the visitor's input once the provider has answered (or failed): written at
  // once, the Durable Object call would compete with sending the provider's request on the
  // isolate's thread and delay the first byte.
  const inputsStored = upstreamCall.then(noop, noop).then(() => room.append([...inputs, ...guard.events]));
  c.executionCtx.waitUntil(inputsStored.catch(noop));

  // The turn's tokens go back to this isolate's slice of the site's budget (reported to the site's
  // ledger with its next refill), not to the ledger per turn.
  const store = (events: SessionEvent[], tokens: number, notes: OwnerNote[] = []) => {
    reservation?.settle(tokens);
    c.executionCtx.waitUntil(inputsStored.then(() => room.append(events, notes)).catch(noop));
  };
  let firstByteMs: number | undefined;
  let upstream: ModelReply;
  try {
    upstream = await upstreamCall;
  } catch (err) {
    // The visitor's message stays; the failure (and the retries before it) go into the trace, the
    // provider's own words into the owner's notes (the error answers the visitor its generic text).
    const { events, notes } = failureEvents(jsonTurn, log, err);
    const held = (await replyGuard?.settle()) ?? [];
    store([...held, ...events], 0, notes);
    throw err;
  }
  firstByteMs = Date.now() - started;
  const { completion, events: guardEvents } = await guardedCompletion(jsonCompletion(upstream), guard, replyGuard, {
    next: async (messages) => {
      const next = { ...body, messages: [...body.messages, ...messages] };
      return jsonCompletion(await callModel(c.env, agent, next, log, targets, cancel.signal));
    },
  });
  const escalation = escalationIn([...guard.events, ...guardEvents]);
  const reply = { ...completionReply(completion), complete: true };
  const { events, tokens } = completionEvents(jsonTurn, log, reply, false, firstByteMs);
  store([...guardEvents, ...events], tokens);
  return c.json(escalation ? { ...completion, [STREAM_EXTENSION]: { event: escalation } } : completion, 200, headers);
});

function jsonCompletion(reply: ModelReply): ChatCompletion {
  if (reply.kind !== "json") throw new ApiError(502, "upstream_error", "The provider streamed an unstreamed reply");
  return reply.completion;
}

/** What the provider call reads of the env: the object running a streamed turn gets the route's view. */
function providerSettings(env: Env, targets: ModelTarget[]): Partial<Env> {
  const settings: Record<string, string | undefined> = {
    LLM_BASE_URL: env.LLM_BASE_URL,
    LLM_API_KEY: env.LLM_API_KEY,
    LLM_TIMEOUT_MS: env.LLM_TIMEOUT_MS,
    DEMO_MODE: env.DEMO_MODE,
    DEMO_CHUNK_MS: env.DEMO_CHUNK_MS,
  };
  const named = env as unknown as Record<string, string | undefined>;
  for (const t of targets) if (t.provider?.keyEnv) settings[t.provider.keyEnv] = named[t.provider.keyEnv];
  return settings as Partial<Env>;
}
