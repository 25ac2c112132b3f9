import type { AgentConfig, SiteConfig } from "../../shared/agent-config.ts";
import type { ChatRequest } from "../../shared/chat.ts";
import type { SessionEvent } from "../../shared/session.ts";
import type { Env } from "../env.ts";
import type { ProviderStream } from "../llm/model-reply.ts";
import type { UpstreamBody } from "../llm/upstream-body.ts";
import { escalationChunk, guardTurn, type TurnGuardResult } from "./turn-guard.ts";

export const NO_GUARD: TurnGuardResult = { events: [], escalation: null, note: null };

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
 * The chat route's one call into the guards: for an agent with the emergency guard, the verdict on
 * the request's latest visitor message. The classifier runs on a turn's first request (the
 * visitor's message is the last one) but not for the router's classification, so it runs once.
 */
export function guardChatRequest(
  env: Env,
  request: Request,
  site: SiteConfig,
  agent: AgentConfig,
  req: ChatRequest,
): Promise<TurnGuardResult> {
  if (!agent.guards.emergency) return Promise.resolve(NO_GUARD);
  const firstStep = req.messages.at(-1)?.role === "user" && req.parley?.purpose !== "classify";
  const baseUrl = site.safety.classifier?.baseUrl ?? env.LLM_BASE_URL;
  const cf = (request as { cf?: { country?: unknown } }).cf;
  const country = typeof cf?.country === "string" && !(env.demo && fromThisMachine(request)) ? cf.country : undefined;
  return guardTurn({
    agent,
    site,
    messages: req.messages,
    model: agent.model,
    place: {
      country,
      acceptLanguage: request.headers.get("accept-language") ?? undefined,
    },
    classifier: firstStep && baseUrl ? { baseUrl, apiKey: env.LLM_API_KEY } : null,
  });
}

/** The model is told with the turn's system prompt; it still answers. */
export function withGuardNote(body: UpstreamBody, guard: TurnGuardResult): void {
  const system = body.messages[0];
  if (guard.note && system?.role === "system") system.content = `${String(system.content)}\n\n${guard.note}`;
}

/** The escalation goes first in the client's stream, ahead of the provider's first byte. */
export function withEscalationFirst(stream: ProviderStream, events: SessionEvent[], model: string): ProviderStream {
  const event = events.find((e) => e.id.startsWith("escalation:"));
  if (!event) return stream;
  const head = escalationChunk(event, model);
  if (!stream.first) return { ...stream, first: head };
  const first = new Uint8Array(head.length + stream.first.length);
  first.set(head);
  first.set(stream.first, head.length);
  return { ...stream, first };
}
