import type { Env } from "../env.ts";
import { ApiError, isProviderError } from "../errors.ts";
import { withGuardNote, type GuardPlan } from "../guard/chat-guard.ts";
import { guardedStream, lateEscalationCalls, startReplyGuard, type ReplyGuard } from "../guard/reply-guard.ts";
import { escalationNote } from "../guard/escalation-text.ts";
import type { ModelReply, ProviderStream } from "../llm/model-reply.ts";
import { ReplyAccumulator } from "../llm/reply-accumulator.ts";
import { callModel, newCallLog } from "../llm/upstream.ts";
import type { LiveHub } from "./live-hub.ts";
import type { Admission } from "./admission-check.ts";
import type { SessionState } from "../../shared/session/session.ts";
import { withStaffTurns } from "./staff-turns.ts";
import { withBookingContext } from "../booking/booking-context.ts";
import { LiveReply } from "./live-reply.ts";
import type { OwnerNote } from "./owner-notes.ts";
import { turnIdRefusal, turnIds } from "./message-ids.ts";
import { completionTraceEvents, replyEvent, usageEvent } from "./message-events.ts";
import { completionEvents, failureEvents, type Turn } from "./turn-record.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

/** A streamed reply began (its bytes), or the provider could not be reached (the route's error). */
export type ReplyStart =
  /**
   * `spent()` settles once the reply has ended: the tokens it cost (the route's budget slice), and
   * whether it was cut (the route then breaks `body`, see live-reply.ts).
   */
  | { ok: true; body: ReadableStream<Uint8Array>; spent: () => Promise<{ tokens: number; cut: boolean }> }
  | { ok: false; refused: Exclude<Admission, { ok: true }> }
  | { ok: false; status: number; code: string; message: string; extra: object; headers: Record<string, string> };

/** What a SessionRoom lends the runner: its env for the provider, its storage, its clients, its log. */
export interface RunnerRoom {
  env: Env;
  sql: SqlStorage;
  hub: LiveHub;
  /** Appends to the log; `notes` are for the owner's trace only (owner-notes.ts). */
  store(events: SessionEvent[], notes?: readonly OwnerNote[]): void;
  admit(perMinute: number, tokenBudget: number): Admission;
  state(): SessionState;
  /** The replies streaming now or finished lately (a new message may not take their ids). */
  liveReplies(): ReadonlySet<string>;
}

/**
 * How often a streaming reply's text is written down, so a reply cut by the object's end is kept: the
 * part since the last time, one small row, so a checkpoint costs the same at the reply's end as at
 * its start (every streaming reply of the object's isolate writes one each second).
 */
const CHECKPOINT_MS = 1_000;

/**
 * A reply written down mid-stream but never finished: the object ended while it streamed (and the
 * provider's request with it). Answers it as far as it came, interrupted, for the visitor's retry,
 * with what it cost as far as that (estimated: the provider's usage never came; the prompt is not
 * kept with the checkpoint, so only the text is counted) and a trace step that says why it ended.
 */
export function cutReplies(sql: SqlStorage, now = Date.now()): SessionEvent[] {
  const cut = new Map<string, string>();
  for (const { id, text } of sql.exec<{ id: string; text: string }>(
    "SELECT id, text FROM live_reply_parts ORDER BY id, o",
  ))
    cut.set(id, (cut.get(id) ?? "") + text);
  sql.exec("DELETE FROM live_reply_parts");
  return [...cut].flatMap(([id, text]) => {
    const acc = new ReplyAccumulator();
    acc.feedText(text);
    const reply = acc.result();
    const callId = `cut:${id}:${now}`;
    const usage = usageEvent(callId, id, "unknown", reply, () => "", now);
    const trace = completionTraceEvents({
      callId,
      replyId: id,
      purpose: "chat",
      model: "unknown",
      ms: 0,
      status: "interrupted",
      attempts: 1,
      retries: [],
      usage: usage.data as { promptTokens: number; completionTokens: number; estimated: true },
      error: { code: "upstream_error", message: "The session's object ended mid-reply; its last checkpoint is kept" },
    });
    return [replyEvent(id, reply, true), usage, ...trace];
  });
}

/**
 * Runs a streamed completion inside the session's object. Answers once the provider has answered
 * (the request's new messages are stored then); the text is kept as it arrives, sent to every
 * attached client, written down each second, and the reply, its usage and trace are stored at its
 * end, as the chat route stored them when it relayed the stream itself.
 */
export async function runReply(room: RunnerRoom, turn: Turn): Promise<ReplyStart> {
  const { hub, sql } = room;
  // The same reply asked again while it streams or just after it finished (a client's retry crossing
  // it, two tabs): one provider request, followed on the live channel. Only a cut reply runs again.
  const ended = hub.replies.get(turn.replyId)?.ended;
  if (ended === null || ended === "complete") {
    const message = `Reply ${turn.replyId} is ${ended ? "complete" : "still streaming"}; follow it on the live channel`;
    return { ok: false, status: 409, code: "conflict", message, extra: {}, headers: {} };
  }
  // A person from the site's staff handles the conversation: the model does not answer (takeover).
  const handler = room.state().handler;
  if (handler?.kind === "person") {
    const message = `${handler.name} from the site's staff handles this conversation now; the model does not answer`;
    return { ok: false, status: 409, code: "taken_over", message, extra: {}, headers: {} };
  }
  // The client names the reply: it must be a new one (or its own cut copy), not a stored message.
  const refusal = turnIdRefusal(room.state(), turnIds(turn.replyId, turn.inputs), room.liveReplies());
  if (refusal) return { ok: false, refused: { ok: false, reason: "ids", refusal } };
  // After a hand back the model reads what was said meanwhile (staff-turns.ts).
  if (turn.ids) withStaffTurns(turn.body, turn.ids, room.state());
  // Visits booked or cancelled in the slots card since the model last spoke (booking-context.ts).
  if (turn.purpose !== "classify") withBookingContext(turn.body, room.state());
  // The session's limits, here rather than in a call of their own: a refused turn stores nothing.
  if (turn.limits) {
    const admission = room.admit(turn.limits.perMinute, turn.limits.tokenBudget);
    if (!admission.ok) return { ok: false, refused: admission };
  }
  const log = newCallLog();
  const guard = turn.guard && replyGuard(room, turn, turn.guard);
  let stream;
  let firstByteMs: number | undefined;
  try {
    stream = await streamOf(callModel(room.env, turn.agent, turn.body, log, turn.targets));
    firstByteMs = Date.now() - turn.started;
  } catch (err) {
    const failure = err instanceof ApiError ? err : new ApiError(502, "upstream_error", String(err));
    const { events, notes } = failureEvents(turn, log, failure);
    const held = (await guard?.settle()) ?? [];
    room.store([...turn.inputs, ...held, ...events], notes);
    // A provider's failure in the session's language; its own words stay in the owner's notes.
    const e = isProviderError(failure) ? failure.forVisitor(room.state().locale ?? "en") : failure;
    return { ok: false, status: e.status, code: e.code, message: e.message, extra: e.extra, headers: e.headers };
  }
  // Erased while the provider answered (the visitor's or the owner's delete): nothing of the turn is
  // kept or streamed, and the provider's request ends here.
  if (!room.state().sessionId) {
    stream.abort?.();
    return { ok: false, refused: { ok: false, reason: "unknown_session" } };
  }
  // The visible stream waits for the classifier (at most the site's timeout since both requests left).
  const inputs = [...turn.inputs, ...((await guard?.settle()) ?? [])];
  // Written just after the start is answered: a write before it would hold the answer back (the
  // runtime's output gate waits for it to be durable). The reply's own record waits for it.
  let inputsStored = false;
  const storeInputs = () => {
    if (inputsStored) return;
    inputsStored = true;
    room.store(inputs);
  };
  if (turn.guard && guard)
    stream = await guardedStream(stream, turn.guard, guard, inputs, {
      store(events) {
        storeInputs();
        room.store(events);
      },
      model: () => log.model ?? turn.defaultModel,
      next: (messages) => {
        const body = { ...turn.body, messages: [...turn.body.messages, ...messages] };
        return streamOf(callModel(room.env, turn.agent, body, log, turn.targets));
      },
    });
  setTimeout(storeInputs, 0);
  const { replyId } = turn;
  let checkpointAt = Date.now();
  /** Text not written down yet, and the offset it starts at. */
  let unsaved = "";
  let savedTo = 0;
  let spent!: (end: { tokens: number; cut: boolean }) => void;
  const tokensSpent = new Promise<{ tokens: number; cut: boolean }>((resolve) => (spent = resolve));
  const reply: LiveReply = new LiveReply(replyId, turn.purpose, stream, {
    wantsText: () => hub.listening(replyId) || Date.now() - checkpointAt >= CHECKPOINT_MS,
    onText: (o, d) => {
      hub.text(replyId, o, d);
      unsaved += d;
      if (Date.now() - checkpointAt < CHECKPOINT_MS) return;
      checkpointAt = Date.now();
      sql.exec("INSERT INTO live_reply_parts (id, o, text) VALUES (?, ?, ?)", replyId, savedTo, unsaved);
      savedTo += unsaved.length;
      unsaved = "";
    },
    onEnd: (r, cut) => {
      storeInputs();
      if (guard) room.store(lateEscalationCalls(guard, r.toolCalls));
      const { events, tokens } = completionEvents(turn, log, r, cut, firstByteMs);
      sql.exec("DELETE FROM live_reply_parts WHERE id = ?", replyId);
      room.store(events);
      hub.ended(reply);
      spent({ tokens, cut });
    },
  });
  hub.add(reply, turn.tab);
  const { readable, writable } = new IdentityTransformStream();
  void reply.run(writable);
  return { ok: true, body: readable, spent: () => tokensSpent };
}

async function streamOf(reply: Promise<ModelReply>): Promise<ProviderStream> {
  const r = await reply;
  if (r.kind !== "stream") throw new ApiError(502, "upstream_error", "The provider did not stream the reply");
  return r.stream;
}

/**
 * The guard's later layers for this reply. A later step of a turn whose message an earlier step
 * escalated (the model's call, the classifier) is told so, as the rules' verdict tells the model,
 * and a call of the tool again raises nothing new.
 */
function replyGuard(room: RunnerRoom, turn: Turn, plan: GuardPlan): ReplyGuard {
  const earlier = plan.raised
    ? null
    : (room.state().escalations ?? []).find((e) => e.messageId === plan.context.messageId);
  const guard = startReplyGuard(plan, turn.site.safety, turn.agent.model, room.env, earlier ?? null);
  if (earlier) withGuardNote(turn.body, { note: escalationNote(earlier) });
  return guard;
}
