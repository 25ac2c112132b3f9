import type { ToolCall } from "../../shared/chat/chat.ts";
import { escalationEvent } from "../../shared/session/events.ts";
import { ESCALATE_EMERGENCY } from "../../shared/tools/escalate-emergency.ts";
import type { SiteSafety } from "../../shared/config/guard-config.ts";
import type { ProviderStream } from "../llm/model-reply.ts";
import { withEscalationFirst, type GuardPlan } from "./chat-guard.ts";
import { classifierTarget } from "./classifier.ts";
import { classifierEvents, startClassifier } from "./classifier-layer.ts";
import { relayEscalationCalls, type FollowUpMessage } from "./escalation-relay.ts";
import { runEscalationCall, type ModelCallOutcome } from "./model-escalation.ts";
import { stepStart } from "./step-start.ts";
import { escalationChunks, escalationIn } from "./turn-guard.ts";
import type { Escalation, SessionEvent } from "../../shared/session/session-events.ts";

export interface ReplyGuard {
  /**
   * Once the provider has answered: the classifier's verdict (waited for, at most the site's
   * timeout from when both requests were sent) as events to store with the turn's inputs.
   */
  settle(): Promise<SessionEvent[]>;
  /** Runs one escalate_emergency call of the model's; the first layer to raise the escalation decides. */
  call(args: string): ModelCallOutcome;
  /** The escalation raised so far for the visitor's message, by whichever layer. */
  readonly escalation: Escalation | null;
}

/**
 * The guard's layers that decide after the provider's request is sent, for one reply: the
 * classifier starts at once, in parallel with the provider's request; the model's tool calls are
 * run as the reply comes. `earlier`: an escalation the session already has for the message (an
 * earlier step of the turn raised it), so a later call does not raise it twice.
 */
export function startReplyGuard(
  plan: GuardPlan,
  safety: SiteSafety,
  model: string,
  /** Where the classifier is reached from: the env of whoever runs the reply. */
  env: { LLM_BASE_URL?: string; LLM_API_KEY?: string },
  earlier: Escalation | null = null,
): ReplyGuard {
  let escalation = plan.raised ?? earlier;
  const config = escalation ? null : plan.classifier;
  const target = config && classifierTarget(env, config);
  const classifying = config && target ? startClassifier(plan.context, config, target, model) : null;
  let settled: Promise<SessionEvent[]> | null = null;
  const settle = async () => {
    if (!classifying) return [];
    const waiting = Date.now();
    const outcome = await classifying;
    const raised = classifierEvents(plan.context, safety, outcome, Date.now() - waiting);
    escalation ??= raised.escalation;
    return raised.events;
  };
  return {
    settle: () => (settled ??= settle()),
    call(args) {
      const outcome = runEscalationCall(plan.context, safety, args, escalation);
      escalation ??= outcome.escalation;
      return outcome;
    },
    get escalation() {
      return escalation;
    },
  };
}

export interface GuardedStreamHooks {
  /** Stores what the model's call raised (after the turn's inputs). */
  store(events: SessionEvent[]): void;
  /** The model that answers, for the chunks the worker adds. */
  model(): string;
  /** The model's next step after its calls: the turn's request with these messages after its own. */
  next(messages: FollowUpMessage[]): Promise<ProviderStream>;
}

/**
 * A streamed reply as the client receives it: the escalation first when a layer has raised one
 * (in `inputs`, or an earlier step of the turn: every step is headed by the card, as the rules'
 * verdict heads each), and, where the tool is offered, the model's escalate_emergency calls run on
 * the worker (escalation-relay.ts) when the reply starts with a call or reasoning, as the model is
 * told to. One that starts with text is piped as it comes; a call after it is run at its end
 * (lateEscalationCalls).
 */
export async function guardedStream(
  stream: ProviderStream,
  plan: GuardPlan,
  guard: ReplyGuard,
  inputs: readonly SessionEvent[],
  hooks: GuardedStreamHooks,
): Promise<ProviderStream> {
  const ctx = plan.context;
  const earlier =
    guard.escalation && !escalationIn(inputs) ? [escalationEvent(guard.escalation, guard.escalation.at)] : [];
  // A reply that starts with text keeps the runtime's pipe; its calls, if any, are run at its end.
  const started = plan.tool ? await stepStart(stream) : { start: "text", stream };
  const relayed =
    started.start === "other"
      ? relayEscalationCalls(started.stream, {
          run(args) {
            const outcome = guard.call(args);
            hooks.store(outcome.events);
            const event = escalationIn(outcome.events);
            return { chunk: event ? escalationChunks(event, hooks.model(), ctx) : null, result: outcome.result };
          },
          next: hooks.next,
        })
      : started.stream;
  return withEscalationFirst(relayed, [...inputs, ...earlier], hooks.model(), ctx);
}

/**
 * escalate_emergency calls in a reply that started with text (so it reached the client as the
 * provider sent it): run once the reply has ended, they raise the card then, and the turn's next
 * step is headed by it (the widget answers such a call as a tool it does not know).
 */
export function lateEscalationCalls(guard: ReplyGuard, calls: readonly ToolCall[]): SessionEvent[] {
  return calls
    .filter((c) => c.function.name === ESCALATE_EMERGENCY)
    .flatMap((c) => guard.call(c.function.arguments).events);
}
