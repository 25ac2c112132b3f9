import type { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import type { ChatRequest } from "../../shared/chat/chat.ts";
import type { Env } from "../env.ts";
import type { ProviderStream } from "../llm/model-reply.ts";
import type { UpstreamBody } from "../llm/upstream-body.ts";
import type { GuardClassifier } from "../../shared/config/guard-config.ts";
import { classifierTarget } from "./classifier.ts";
import { offersEscalationTool } from "./model-escalation.ts";
import {
  escalationChunks,
  escalationIn,
  guardTurn,
  NOTHING_RAISED,
  type EscalationContext,
  type TurnGuardResult,
} from "./turn-guard.ts";
import type { Escalation, SessionEvent } from "../../shared/session/session-events.ts";

/**
 * The guard's layers that decide after the provider's request is sent, for one request: plain
 * data, so the session's object runs them for a streamed turn (reply-guard.ts).
 */
export interface GuardPlan {
  context: EscalationContext;
  /** The rules' escalation (its events are in the turn's inputs), or null. */
  raised: Escalation | null;
  /**
   * The site's classifier, run with the provider's request (the rules found nothing; the turn's first
   * request). Its settings only: whoever runs it reaches it with its own env's key (classifier.ts).
   */
  classifier: GuardClassifier | null;
  /** escalate_emergency is offered to the model (model-escalation.ts). */
  tool: boolean;
}

export interface ChatGuard extends TurnGuardResult {
  /** Null for an agent without the emergency guard, or a request without a visitor message. */
  plan: GuardPlan | null;
}

export const NO_GUARD: ChatGuard = { ...NOTHING_RAISED, context: null, plan: null };

/**
 * Local wrangler dev reports a made-up network country (US) for every request, so on the local demo a
 * Chinese visitor saw 911 and 988 first. A request from this machine (no CF-Connecting-IP, or a
 * loopback one) has no country in demo mode: the visitor's locale decides (see visitorRegion).
 */
function fromThisMachine(request: Request): boolean {
  const ip = request.headers.get("cf-connecting-ip");
  return !ip || /^(?:127\.|::1$|::ffff:127\.)/.test(ip);
}

/**
 * The chat route's one call into the guards: for an agent with the emergency guard, the rules'
 * verdict on the request's latest visitor message, and the plan for the layers that run with the
 * provider's request. The classifier runs on a turn's first request (the visitor's message is the
 * last one) but not for the router's classification, so it runs once.
 */
export function guardChatRequest(
  env: Env,
  request: Request,
  site: SiteConfig,
  agent: AgentConfig,
  req: ChatRequest,
): ChatGuard {
  if (!agent.guards.emergency) return NO_GUARD;
  const purpose = req.parley?.purpose ?? "chat";
  const firstStep = req.messages.at(-1)?.role === "user" && purpose !== "classify";
  const cf = (request as { cf?: { country?: unknown } }).cf;
  const country = typeof cf?.country === "string" && !(env.demo && fromThisMachine(request)) ? cf.country : undefined;
  const verdict = guardTurn({
    agent,
    site,
    messages: req.messages,
    place: {
      country,
      acceptLanguage: request.headers.get("accept-language") ?? undefined,
    },
    extension: req.parley !== undefined,
  });
  if (!verdict.context) return { ...verdict, plan: null };
  const config = site.safety.classifier;
  const classifier = config && classifierTarget(env, config) && firstStep && !verdict.escalation ? config : null;
  const tool = offersEscalationTool(agent, site, purpose, verdict.escalation !== null);
  return { ...verdict, plan: { context: verdict.context, raised: verdict.escalation, classifier, tool } };
}

/** The model is told with the turn's system prompt; it still answers. */
export function withGuardNote(body: UpstreamBody, guard: { note: string | null }): void {
  const system = body.messages[0];
  if (guard.note && system?.role === "system") system.content = `${String(system.content)}\n\n${guard.note}`;
}

/** The escalation goes first in the client's stream, ahead of the provider's first byte. */
export function withEscalationFirst(
  stream: ProviderStream,
  events: readonly SessionEvent[],
  model: string,
  ctx: EscalationContext,
): ProviderStream {
  const event = escalationIn(events);
  if (!event) return stream;
  const head = new TextEncoder().encode(escalationChunks(event, model, ctx));
  if (!stream.first) return { ...stream, first: head };
  const first = new Uint8Array(head.length + stream.first.length);
  first.set(head);
  first.set(stream.first, head.length);
  return { ...stream, first };
}
