import type { Context } from "hono";
import type { ChatCompletion } from "../../shared/chat/chat.ts";
import { STREAM_EXTENSION } from "../../shared/wire/protocol.ts";
import { completionReply } from "../../shared/chat/reply-fold.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { withBookingContext } from "../booking/booking-context.ts";
import { guardedCompletion } from "../guard/escalation-completion.ts";
import { startReplyGuard } from "../guard/reply-guard.ts";
import { escalationIn } from "../guard/turn-guard.ts";
import { noteRefusal } from "../limits/refusals.ts";
import type { ModelReply } from "../llm/model-reply.ts";
import { callModel } from "../llm/upstream.ts";
import { promptVersions } from "../prompts/agent-prompt-cache.ts";
import type { OwnerNote } from "../session/owner-notes.ts";
import { withStaffTurns } from "../session/staff-turns.ts";
import { completionEvents, failureEvents, type TurnInfo } from "../session/turn-record.ts";
import type { PreparedTurn } from "./prepare-turn.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

const noop = () => {};

/**
 * A turn not streamed: nothing to resume, so the route calls the provider itself and stores the
 * whole reply. Where the plan allows, the provider's request leaves before the session's admission
 * is back; a refused turn aborts it, and nothing of the reply is passed on, nor anything stored,
 * before the admission passes.
 */
export async function jsonTurn(c: Context<AppEnv>, t: PreparedTurn): Promise<Response> {
  const { agent, site, body, guard, log, targets, reservation, room } = t;
  // The guard's classifier starts with the provider's request (reply-guard.ts), not before it.
  const replyGuard = guard.plan && startReplyGuard(guard.plan, site.safety, agent.model, c.env);
  const cancel = new AbortController();
  const call = () => {
    const p = callModel(c.env, agent, body, log, targets, cancel.signal);
    // Handled below once the admission is back; a failure before then is not an unhandled one.
    p.catch(noop);
    return p;
  };
  let upstreamCall = t.plan.providerEarly ? call() : undefined;
  try {
    const seen = await t.admitted;
    if (site.takeover.enabled && seen) withStaffTurns(body, t.sentIds, seen);
    // Visits booked or cancelled in the slots card since the model last spoke (booking-context.ts).
    if (t.books && t.purpose !== "classify") withBookingContext(body, seen);
  } catch (err) {
    cancel.abort();
    upstreamCall?.then((r) => (r.kind === "stream" ? r.stream.abort?.() : undefined), noop);
    reservation?.settle(0);
    noteRefusal(t.sid, err);
    throw err;
  }
  upstreamCall ??= call();

  const turn: TurnInfo = {
    callId: t.callId,
    replyId: t.replyId,
    purpose: t.purpose,
    started: t.started,
    agent,
    site,
    body,
    defaultModel: t.model(),
    prompt: promptVersions(t.prompt),
  };
  // The session stores the visitor's input once the provider has answered (or failed): written at
  // once, the Durable Object call would compete with sending the provider's request on the
  // isolate's thread and delay the first byte.
  const inputsStored = upstreamCall.then(noop, noop).then(() => room.append([...t.inputs, ...guard.events]));
  c.executionCtx.waitUntil(inputsStored.catch(noop));

  // The turn's tokens go back to this isolate's slice of the site's budget (reported to the site's
  // ledger with its next refill), not to the ledger per turn.
  const store = (events: SessionEvent[], tokens: number, notes: OwnerNote[] = []) => {
    reservation?.settle(tokens);
    c.executionCtx.waitUntil(inputsStored.then(() => room.append(events, notes)).catch(noop));
  };
  let upstream: ModelReply;
  try {
    upstream = await upstreamCall;
  } catch (err) {
    // The visitor's message stays; the failure (and the retries before it) go into the trace, the
    // provider's own words into the owner's notes (the error answers the visitor its generic text).
    const { events, notes } = failureEvents(turn, log, err);
    const held = (await replyGuard?.settle()) ?? [];
    store([...held, ...events], 0, notes);
    throw err;
  }
  const firstByteMs = Date.now() - t.started;
  const { completion, events: guardEvents } = await guardedCompletion(jsonCompletion(upstream), guard, replyGuard, {
    next: async (messages) => {
      const next = { ...body, messages: [...body.messages, ...messages] };
      return jsonCompletion(await callModel(c.env, agent, next, log, targets, cancel.signal));
    },
  });
  const escalation = escalationIn([...guard.events, ...guardEvents]);
  const reply = { ...completionReply(completion), complete: true };
  const { events, tokens } = completionEvents(turn, log, reply, false, firstByteMs);
  store([...guardEvents, ...events], tokens);
  return c.json(escalation ? { ...completion, [STREAM_EXTENSION]: { event: escalation } } : completion, 200, t.headers);
}

function jsonCompletion(reply: ModelReply): ChatCompletion {
  if (reply.kind !== "json") throw new ApiError(502, "upstream_error", "The provider streamed an unstreamed reply");
  return reply.completion;
}
