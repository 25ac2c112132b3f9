import type { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import { ApiError, isProviderError } from "../errors.ts";
import { adviceFromReply } from "../guard/advice-guard.ts";
import type { GuardPlan } from "../guard/chat-guard.ts";
import { replyComplianceEvents } from "../guard/reply-compliance.ts";
import type { ModelTarget } from "../llm/model-targets.ts";
import type { AccumulatedReply } from "../llm/reply-accumulator.ts";
import type { CallLog } from "../llm/upstream.ts";
import type { UpstreamBody } from "../llm/upstream-body.ts";
import { completionTraceEvents, replyEvent, routeTraceEvent, usageEvent } from "./message-events.ts";
import type { OwnerNote } from "./owner-notes.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

/**
 * What running and recording a completion read of its agent and its site: the provider call the
 * agent's id and model, the reply's guards its `guards` and the site's `safety`. A streamed turn's
 * object is sent these alone, not the whole configs (less to copy across the call before the
 * provider is asked).
 */
export type TurnAgent = Pick<AgentConfig, "id" | "model" | "guards">;
export type TurnSite = Pick<SiteConfig, "safety">;

export const turnAgent = ({ id, model, guards }: AgentConfig): TurnAgent => ({ id, model, guards });

/**
 * One completion of a turn, as the chat route hands it over: plain data, so the session's Durable
 * Object can run a streamed one itself (its provider request then outlives the visitor's page). It
 * carries no secret: the object reads the provider's key, like its other settings, from its own env,
 * by the name the site's profile gives (`targets`).
 */
export interface Turn {
  callId: string;
  replyId: string;
  purpose: string;
  started: number;
  siteKey: string;
  agent: TurnAgent;
  site: TurnSite;
  body: UpstreamBody;
  targets: ModelTarget[];
  /** The model's name when the call log names none (the demo model, the agent's own). */
  defaultModel: string;
  /** Which registry versions the system prompt was compiled from. */
  prompt: string;
  /** The request's new messages and the guard's verdict, stored once the provider has answered. */
  inputs: SessionEvent[];
  /** The emergency guard's layers that run with the provider's request (classifier, the model's tool). */
  guard?: GuardPlan;
  /**
   * The session's own limits, checked by its object as it starts the reply (no call of their own);
   * absent when the route already checked them (stage workflows need the state first).
   */
  limits?: { perMinute: number; tokenBudget: number };
  /** The client's message ids, in the order of `body.messages` after the system prompt (staff-turns.ts). */
  ids?: Array<string | undefined>;
  /** The page that streams the reply over this request's response (live-hub.ts sends it no copy). */
  tab?: string;
}

/** What recording a completion reads of its turn (a non-streamed one is recorded by the route). */
export type TurnInfo = Pick<
  Turn,
  "callId" | "replyId" | "purpose" | "started" | "agent" | "site" | "body" | "defaultModel" | "prompt"
>;

/** What the session stores of a finished (or cut) completion, and the tokens it spent. */
export function completionEvents(
  turn: TurnInfo,
  log: CallLog,
  reply: AccumulatedReply,
  cut: boolean,
  firstByteMs?: number,
): { events: SessionEvent[]; tokens: number } {
  const { callId, replyId, purpose, agent, started } = turn;
  const model = log.model ?? turn.defaultModel;
  const usage = usageEvent(callId, replyId, model, reply, () => JSON.stringify(turn.body.messages));
  const u = usage.data as { promptTokens: number; completionTokens: number; estimated?: boolean };
  const trace = completionTraceEvents({
    callId,
    replyId,
    purpose,
    model,
    ms: Date.now() - started,
    firstByteMs,
    status: cut ? "interrupted" : "complete",
    attempts: log.attempts,
    retries: log.retries,
    fallbacks: log.fallbacks,
    usage: u,
    prompt: turn.prompt,
    ...(cut
      ? { error: { code: "upstream_error", message: "The stream broke off before the reply was complete" } }
      : {}),
  });
  // A router classification is a decision about the turn, not part of the conversation.
  const message =
    purpose === "classify" ? routeTraceEvent(replyId, reply, Date.now() - started) : replyEvent(replyId, reply, cut);
  // Advice cards come only from record_advice calls in a reply the worker relayed (advice guard).
  const advice = purpose === "classify" || cut ? [] : adviceFromReply(reply.toolCalls, replyId, agent);
  const compliance = purpose === "classify" ? [] : replyComplianceEvents(reply.content, replyId, agent, turn.site);
  return { events: [message, usage, ...trace, ...advice, ...compliance], tokens: u.promptTokens + u.completionTokens };
}

/**
 * A completion that never began (the provider refused or could not be reached): its trace steps, with
 * the failure's code and visitor-safe message, and the provider's own words as a note for the owner.
 */
export function failureEvents(
  turn: TurnInfo,
  log: CallLog,
  err: unknown,
): { events: SessionEvent[]; notes: OwnerNote[] } {
  const { callId, replyId, purpose, started } = turn;
  const { attempts, retries, fallbacks } = log;
  const model = log.model ?? turn.defaultModel;
  const error =
    err instanceof ApiError ? { code: err.code, message: err.message } : { code: "internal", message: String(err) };
  const outcome = { callId, replyId, purpose, model, ms: Date.now() - started, status: "failed" as const };
  const events = completionTraceEvents({ ...outcome, attempts, retries, fallbacks, error });
  // The completion's own step (the last), not the retries and fallbacks before it.
  const step = events.at(-1)!.id;
  const notes = isProviderError(err) ? [{ step, text: err.ownerText }] : [];
  return { events, notes };
}
