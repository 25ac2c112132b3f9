import type { ChatMessage } from "../../shared/chat/chat.ts";
import { messageEvent, toStoredMessage, usageEvent as usageRecorded } from "../../shared/session/events.ts";
import { traceEvent, traceEventId } from "../../shared/chat/step-events.ts";
import type { AccumulatedReply } from "../llm/reply-accumulator.ts";
import type { SessionEvent, StoredMessage } from "../../shared/session/session-events.ts";

/**
 * The messages a chat request adds to the session: those after its last assistant message (the
 * visitor's new message, or the tool results of the previous step). Earlier ones are already
 * stored from earlier requests.
 */
export function newInputEvents(messages: readonly ChatMessage[], now = Date.now()): SessionEvent[] {
  let start = messages.length;
  while (start > 0 && messages[start - 1].role !== "assistant") start--;
  return messages
    .slice(start)
    .filter((m) => m.role !== "system")
    .map((m) => messageEvent(toStoredMessage(m, now, crypto.randomUUID())));
}

export function replyEvent(replyId: string, reply: AccumulatedReply, cut: boolean, now = Date.now()): SessionEvent {
  const message: StoredMessage = {
    id: replyId,
    role: "assistant",
    content: reply.content,
    ...(reply.reasoning ? { reasoning: reply.reasoning } : {}),
    ...(reply.toolCalls.length ? { toolCalls: reply.toolCalls } : {}),
    status: cut ? "interrupted" : "complete",
    at: now,
  };
  // An interrupted copy gets its own event id, so a completed retry of the same reply supersedes it.
  return messageEvent(message, cut ? ":interrupted" : "");
}

/** The router's classification, kept as a trace step of the turn. */
export function routeTraceEvent(replyId: string, reply: AccumulatedReply, ms: number, now = Date.now()): SessionEvent {
  let decision: Record<string, string | number | null> = { intent: null };
  try {
    const args = JSON.parse(reply.toolCalls[0]?.function.arguments ?? "{}") as { intent?: string; confidence?: number };
    decision = { intent: String(args.intent ?? ""), confidence: Number(args.confidence ?? 0) };
  } catch {
    /* an unparsable classification is recorded as such */
  }
  return traceEvent(
    traceEventId(replyId),
    { kind: "classify", ms, ok: decision.intent !== null, detail: decision },
    now,
  );
}

/** Tokens of text when the provider sent no usage (a cut stream): about four characters a token. */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/**
 * What one completion cost, for the session's budget: the provider's usage, or an estimate when
 * it sent none (a stream cut before its usage chunk is still billed).
 */
export function usageEvent(
  callId: string,
  replyId: string,
  model: string,
  reply: AccumulatedReply | null,
  promptText: () => string,
  now = Date.now(),
): SessionEvent {
  const u = reply?.usage;
  const completionText = reply ? reply.content + reply.toolCalls.map((t) => t.function.arguments).join("") : "";
  const data = u
    ? { replyId, model, promptTokens: u.prompt_tokens ?? 0, completionTokens: u.completion_tokens ?? 0 }
    : {
        replyId,
        model,
        promptTokens: estimateTokens(promptText()),
        completionTokens: estimateTokens(completionText),
        estimated: true,
      };
  return usageRecorded(callId, data, now);
}

export interface CompletionOutcome {
  callId: string;
  replyId: string;
  purpose: string;
  model: string;
  ms: number;
  /** ms from the request to the provider's first byte (a streamed reply's first token, as the edge saw it). */
  firstByteMs?: number;
  status: "complete" | "interrupted" | "failed";
  attempts: number;
  retries: Array<{ reason: string; status: number | null; waitMs: number }>;
  /** Moves to the site's next model, with the reason (a 429, a 5xx, a timeout before the reply began). */
  fallbacks?: Array<{ from: string; to: string; reason: string; status: number | null; retryAfterMs?: number }>;
  usage?: { promptTokens: number; completionTokens: number; estimated?: boolean };
  error?: { code: string; message: string };
  /** Which registry versions the system prompt was compiled from (which prompt answered this turn). */
  prompt?: string;
}

/**
 * A turn's completion as trace steps, as the protocol designer's stage workflow and the strategy desk
 * show them: each fallback and retry, then the completion itself.
 */
export function completionTraceEvents(o: CompletionOutcome, now = Date.now()): SessionEvent[] {
  const fallbacks: SessionEvent[] = (o.fallbacks ?? []).map((f, i) =>
    traceEvent(
      traceEventId(`fallback:${o.callId}:${i + 1}`),
      {
        kind: "fallback",
        name: f.from,
        ok: false,
        detail: {
          replyId: o.replyId,
          from: f.from,
          to: f.to,
          reason: f.reason,
          status: f.status,
          retryAfterMs: f.retryAfterMs ?? null,
        },
      },
      now,
    ),
  );
  const retries: SessionEvent[] = o.retries.map((r, i) =>
    traceEvent(
      traceEventId(`retry:${o.callId}:${i + 1}`),
      {
        kind: "retry",
        name: o.model,
        ok: false,
        detail: { replyId: o.replyId, retry: i + 1, reason: r.reason, status: r.status, waitMs: r.waitMs },
      },
      now,
    ),
  );
  const detail: Record<string, string | number | boolean | null> = {
    replyId: o.replyId,
    purpose: o.purpose,
    model: o.model,
    status: o.status,
    attempts: o.attempts,
    retries: o.retries.length,
    fallbacks: o.fallbacks?.length ?? 0,
    promptTokens: o.usage?.promptTokens ?? null,
    completionTokens: o.usage?.completionTokens ?? null,
  };
  if (o.firstByteMs !== undefined) detail.firstByteMs = o.firstByteMs;
  if (o.usage?.estimated) detail.estimated = true;
  if (o.prompt) detail.prompt = o.prompt;
  if (o.error) Object.assign(detail, { error: o.error.code, message: o.error.message.slice(0, 300) });
  const completion = { kind: "completion", name: o.model, ms: o.ms, ok: o.status === "complete", detail };
  return [...fallbacks, ...retries, traceEvent(traceEventId(`completion:${o.callId}`), completion, now)];
}
