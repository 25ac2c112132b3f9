import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorCode } from "../../shared/wire/errors.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { sessionRefusal } from "../limits/admission.ts";
import { noteRefusal } from "../limits/refusals.ts";
import { DRAIN_MS } from "../session/live-reply.ts";
import { turnAgent, type Turn } from "../session/turn-record.ts";
import { promptVersions } from "../prompts/agent-prompt-cache.ts";
import type { PreparedTurn } from "./prepare-turn.ts";

const noop = () => {};

/**
 * A streamed turn: run by the session's object (reply-runner.ts), so the reply outlives the visitor's
 * page (the live channel, routes/live.ts); where the plan leaves the admission to the object, it
 * checks the session's limits as it starts the reply. The route relays the object's stream.
 */
export async function streamTurn(c: Context<AppEnv>, t: PreparedTurn): Promise<Response> {
  const { site, plan, reservation } = t;
  const turn: Turn = {
    callId: t.callId,
    replyId: t.replyId,
    purpose: t.purpose,
    started: t.started,
    siteKey: site.siteKey,
    agent: turnAgent(t.agent),
    site: { safety: site.safety },
    body: t.body,
    targets: t.targets,
    defaultModel: t.model(),
    prompt: promptVersions(t.prompt),
    inputs: [...t.inputs, ...t.guard.events],
    ...(t.guard.plan ? { guard: t.guard.plan } : {}),
    ids: t.sentIds,
    tab: t.req.parley?.tab,
    ...(plan.where === "room"
      ? { limits: { perMinute: site.rateLimits.sessionPerMinute, tokenBudget: site.budgets.perSession } }
      : {}),
  };
  let start;
  try {
    await t.admitted;
    start = await t.room.streamReply(turn);
  } catch (err) {
    reservation?.settle(0);
    noteRefusal(t.sid, err);
    throw err;
  }
  if (!start.ok) {
    reservation?.settle(0);
    if ("refused" in start) {
      const refusal = sessionRefusal(site, start.refused);
      noteRefusal(t.sid, refusal);
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
      ...t.headers,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
}
