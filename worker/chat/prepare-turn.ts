import type { Context } from "hono";
import type { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import type { ChatRequest } from "../../shared/chat/chat.ts";
import { HEADERS } from "../../shared/wire/protocol.ts";
import type { SessionState } from "../../shared/session/session.ts";
import { STAFF_MESSAGE_PREFIX } from "../../shared/takeover/takeover-api.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { bookingToolNames } from "../booking/booking-calendar.ts";
import { loadSessionAgent } from "../config/config-store.ts";
import { chatConsent } from "../config/consent-notice.ts";
import { guardChatRequest, withGuardNote, type ChatGuard } from "../guard/chat-guard.ts";
import { admitLocally, admitSession, type TurnReservation } from "../limits/admission.ts";
import { recentlyRefused } from "../limits/refusals.ts";
import { turnReserve } from "../limits/turn-cost.ts";
import { modelTargets, type ModelTarget } from "../llm/model-targets.ts";
import { modelName, newCallLog, type CallLog } from "../llm/upstream.ts";
import { upstreamBody, type UpstreamBody } from "../llm/upstream-body.ts";
import { mcpToolsForTurn } from "../mcp/mcp-tools.ts";
import { mcpProblemSteps } from "../mcp/mcp-trace.ts";
import { checkSiteOrigin } from "../middleware/site-origin.ts";
import { sessionRoom } from "../objects.ts";
import { resolvePhotoParts } from "../photos/photo-parts.ts";
import { agentSystemPrompt, configPrompt, type CompiledPrompt } from "../prompts/agent-prompt-cache.ts";
import { newInputEvents } from "../session/message-events.ts";
import { turnIds } from "../session/message-ids.ts";
import { ADMISSION_STEPS, admissionPlan, type AdmissionPlan, type AdmissionStep } from "./admission-plan.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

const noop = () => {};
const isStaffId = (id: string | undefined) => !!id?.startsWith(STAFF_MESSAGE_PREFIX);

/** A chat turn ready for its provider: what streamTurn or jsonTurn needs, checked and reserved. */
export interface PreparedTurn {
  req: ChatRequest;
  sid: string;
  site: SiteConfig;
  agent: AgentConfig;
  prompt: CompiledPrompt;
  guard: ChatGuard;
  body: UpstreamBody;
  /** The models that may answer, in order (the site's fallbacks after the one asked for). */
  targets: ModelTarget[];
  /** The turn's hold on this isolate's slice of the site's budget, settled with what it spent. */
  reservation: TurnReservation | null;
  plan: AdmissionPlan;
  /** The agent books visits on the site's calendar: the session's bookings go into the prompt. */
  books: boolean;
  /** The session's admission (the state with it, where the plan asks for it); already passed for `room`. */
  admitted: Promise<SessionState | undefined>;
  /** The request's new messages, stored once the provider has answered. */
  inputs: SessionEvent[];
  /** The client's message ids, in the order of `body.messages` after the system prompt (staff-turns.ts). */
  sentIds: Array<string | undefined>;
  room: ReturnType<typeof sessionRoom>;
  callId: string;
  replyId: string;
  purpose: string;
  started: number;
  log: CallLog;
  /** The model's name when the call log names none yet (the demo model, the one asked for). */
  model: () => string;
  headers: Record<string, string>;
}

/**
 * Everything a chat turn does before its provider is asked: the request's own checks, the site and
 * agent, the admission as planned (admission-plan.ts), the guard's verdict, the prompt, the body,
 * the photos, the models to ask, and the IP's rate and the site's budget from this isolate's slices
 * (no Durable Object call per turn). Refusals throw; nothing is stored for a refused turn.
 */
export async function prepareTurn(c: Context<AppEnv>, req: ChatRequest): Promise<PreparedTurn> {
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
  // The agent's consent notice, where it asks one: the session must have agreed to its current version.
  const notice = chatConsent(site, agent);
  const consent = notice ? [notice] : [];
  // An agent that books visits is offered the booking tools when its site connects a calendar.
  const bookingTools = bookingToolNames(agent, site);
  const plan = admissionPlan({
    stream: req.stream === true,
    stages: agent.stages.length > 0,
    photos: req.messages.some((m) => typeof m.content !== "string" && m.content),
    consent: !!notice,
    takeover: site.takeover.enabled,
    books: bookingTools.length > 0,
    refusedLately: recentlyRefused(claims.sid),
  });
  // The reply's id and the new messages' must name new messages, not stored ones (message-ids.ts).
  const inputs = newInputEvents(req.messages);
  const admitted =
    plan.where === "room"
      ? Promise.resolve(undefined)
      : admitSession(c, site, claims, true, plan.withState, turnIds(replyId, inputs), consent);
  admitted.catch(noop);
  /** The admission where the plan has this step wait for it; nothing to wait for before that step. */
  const before = (step: AdmissionStep) =>
    ADMISSION_STEPS.indexOf(step) >= ADMISSION_STEPS.indexOf(plan.before) ? admitted : Promise.resolve(undefined);

  await before("guard");
  // Emergencies are recognised before the provider is called, whatever the model will say.
  const guard = guardChatRequest(c.env, c.req.raw, site, agent, req);
  // The site's MCP servers list their tools while the prompt is read (cached; a server down costs its tools only).
  const mcp = mcpToolsForTurn(c.env, site, agent);
  mcp.catch(noop);
  // A draft is tried with its own prompt text: the registry holds the published agent's versions. The
  // compiled prompt is an isolate-cache read (a registry round trip at most every 5 s).
  const prompt = await (claims.draft
    ? configPrompt(agent)
    : agentSystemPrompt(c.env, site.siteKey, agent, (p) => c.executionCtx.waitUntil(p)));
  const state = await before("prompt");

  const room = sessionRoom(c.env, claims.sid);
  const started = Date.now();
  const maxTokens = Math.min(agent.maxTokens, site.maxTokens ?? agent.maxTokens);
  const booking = bookingTools.filter((t) => !agent.tools.includes(t));
  const capped = { ...agent, systemPrompt: prompt.text, maxTokens, tools: [...agent.tools, ...booking] };
  const { tools: mcpTools, problems } = await mcp;
  if (problems.length) c.executionCtx.waitUntil(room.append(mcpProblemSteps(problems)).catch(noop));
  const body = upstreamBody(req, capped, state, {
    askForPerson: site.takeover.enabled,
    escalationTool: guard.plan?.tool ?? false,
    mcpTools,
  });
  if (req.model !== undefined) body.model = req.model;
  withGuardNote(body, guard);
  // Measured before photos become data URLs: an image costs the model its own count of tokens.
  const json = JSON.stringify(body);
  await before("photos");
  const photos = await resolvePhotoParts(c.env, site, agent, claims.sid, body);
  // The model asked for, then the site's fallbacks (those that can see, for photos); a model unfit
  // for the agent is a config error.
  const targets = modelTargets(site, agent, req.model).filter((t, i) => i === 0 || !photos || t.caps.vision);
  const log = newCallLog();
  const model = () => log.model ?? modelName(c.env, { ...agent, model: body.model as string });
  const reservation = await admitLocally(c, site, turnReserve(body, json, photos));
  return {
    req,
    sid: claims.sid,
    site,
    agent,
    prompt,
    guard,
    body,
    targets,
    reservation,
    plan,
    books: bookingTools.length > 0,
    admitted,
    inputs,
    sentIds: req.messages.map((m) => m.id),
    room,
    callId: crypto.randomUUID(),
    replyId,
    purpose: req.parley?.purpose ?? "chat",
    started,
    log,
    model,
    headers: { [HEADERS.replyId]: replyId, [HEADERS.sessionId]: claims.sid },
  };
}
