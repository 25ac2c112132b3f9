import type { ChatCompletion, Usage } from "../../shared/chat/chat.ts";
import { ESCALATE_EMERGENCY } from "../../shared/tools/escalate-emergency.ts";
import type { ChatGuard } from "./chat-guard.ts";
import type { FollowUpMessage } from "./escalation-relay.ts";
import { escalationAsText } from "./escalation-text.ts";
import { MAX_ESCALATION_ROUNDS } from "./model-escalation.ts";
import type { ReplyGuard } from "./reply-guard.ts";
import { escalationIn } from "./turn-guard.ts";
import type { Escalation, SessionEvent } from "../../shared/session/session-events.ts";

export interface CompletionCallHooks {
  /** Runs one escalate_emergency call (its JSON arguments); the result the model reads next. */
  run(args: string): string;
  /** The model's next step: the turn's request with these messages after its own. */
  next(messages: FollowUpMessage[]): Promise<ChatCompletion>;
}

const sum = (a: Usage | undefined, b: Usage | undefined): Usage | undefined =>
  a && b
    ? {
        prompt_tokens: a.prompt_tokens + b.prompt_tokens,
        completion_tokens: a.completion_tokens + b.completion_tokens,
        total_tokens: a.total_tokens + b.total_tokens,
      }
    : (a ?? b);

/**
 * A completion that is not streamed, with the model's escalate_emergency calls run on the worker
 * (relayEscalationCalls for a streamed one): the calls are taken out of the message, and a message
 * that called nothing else is followed by the model's next one, asked with their results. The
 * answer is the last completion, with the text of the steps before it and every request's usage.
 */
export async function answerEscalationCalls(
  completion: ChatCompletion,
  hooks: CompletionCallHooks,
): Promise<ChatCompletion> {
  const followUp: FollowUpMessage[] = [];
  let current = completion;
  let text = "";
  let usage = completion.usage;
  for (let round = 0; ; round++) {
    const choice = current.choices?.[0];
    const calls = choice?.message?.tool_calls ?? [];
    const mine = calls.filter((c) => c.function?.name === ESCALATE_EMERGENCY);
    if (!choice || !mine.length) break;
    const results = mine.map((call) => hooks.run(call.function.arguments));
    const others = calls.filter((c) => c.function?.name !== ESCALATE_EMERGENCY);
    if (others.length || round >= MAX_ESCALATION_ROUNDS) {
      const { tool_calls: _all, ...message } = choice.message;
      choice.message = others.length ? { ...message, tool_calls: others } : message;
      if (!others.length) choice.finish_reason = "stop";
      break;
    }
    const content = choice.message.content ?? null;
    followUp.push(
      { role: "assistant", content, tool_calls: mine },
      ...mine.map((call, i) => ({ role: "tool" as const, tool_call_id: call.id, content: results[i] })),
    );
    text += content ?? "";
    current = await hooks.next(followUp);
    usage = sum(usage, current.usage);
  }
  if (!text && usage === current.usage) return current;
  const [first, ...choices] = current.choices ?? [];
  const message = first ? { ...first.message, content: text + (first.message.content ?? "") } : undefined;
  return {
    ...current,
    choices: first && message ? [{ ...first, message }, ...choices] : current.choices,
    ...(usage ? { usage } : {}),
  };
}

/**
 * A completion that is not streamed, as the client receives it: the classifier's verdict waited for,
 * the model's escalate_emergency calls run, and for a client that does not read Parley's field, the
 * card as the reply's first words (`message.content`). `events`: what the later layers raised and
 * traced, to store with the reply (the rules' are stored with the turn's input).
 */
export async function guardedCompletion(
  completion: ChatCompletion,
  guard: ChatGuard,
  replyGuard: ReplyGuard | null,
  hooks: Pick<CompletionCallHooks, "next">,
): Promise<{ completion: ChatCompletion; events: SessionEvent[] }> {
  if (!replyGuard || !guard.plan) return { completion, events: [] };
  const events = await replyGuard.settle();
  let answered = completion;
  if (guard.plan.tool) {
    const run = (args: string) => {
      const outcome = replyGuard.call(args);
      events.push(...outcome.events);
      return outcome.result;
    };
    answered = await answerEscalationCalls(completion, { run, next: hooks.next });
  }
  const event = escalationIn([...guard.events, ...events]);
  const ctx = guard.plan.context;
  if (!event || ctx.extension) return { completion: answered, events };
  const text = escalationAsText((event.data as { escalation: Escalation }).escalation, ctx.language);
  const [first, ...others] = answered.choices ?? [];
  if (!first) return { completion: answered, events };
  const message = { ...first.message, content: `${text}${first.message.content ?? ""}`.trimEnd() };
  return { completion: { ...answered, choices: [{ ...first, message }, ...others] }, events };
}
