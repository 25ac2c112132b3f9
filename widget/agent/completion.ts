import type { ChatChunk, ChatMessage, Purpose, ToolCall } from "../../shared/chat/chat.ts";
import { EVENT_TYPES, STREAM_EXTENSION } from "../../shared/wire/protocol.ts";
import { emptyReply, endReply, foldChunk } from "../../shared/chat/reply-fold.ts";
import { loadOnce } from "../load-once.ts";
import { createApi, type ApiContext, type SessionAuth } from "../transport/api.ts";
import { isHttpError, ProtocolError } from "../transport/errors.ts";
import { bodyText, chatChunkDecoder } from "../transport/sse.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

/** Reattaching a reply after a break: loaded as each reply starts, so it is here when the network is not. */
const loadFollow = loadOnce(() => import("../transport/follow.ts"));

export interface CompletionRequest {
  messages: ChatMessage[];
  replyId: string;
  purpose?: Purpose;
  sources?: string;
  signal?: AbortSignal;
  /**
   * Called with the answer and the reasoning so far each time a piece of either arrives, and when the
   * provider's finish reason does (`ended`): the text will not grow, whatever the stream's end still takes.
   */
  onText?: (text: string, reasoning?: string, ended?: boolean) => void;
  /** The reply is already streaming at the worker (the page was reloaded): follow it, send nothing. */
  resume?: boolean;
}

export interface StepResult {
  text: string;
  /** The model's thinking, split from the answer (shared/chat/reasoning.ts); "" when it showed none. */
  reasoning?: string;
  toolCalls: ToolCall[];
  finishReason: string | null;
}

/** One completion; the loop and the router only see this function, so tests can script it. */
export type Complete = (req: CompletionRequest) => Promise<StepResult>;

/** Completions through the Parley proxy, streamed, folded as the worker folds its copy (shared/chat/reply-fold.ts). */
export function proxyCompletion(
  ctx: ApiContext & { auth: () => SessionAuth; tab?: string; onEvent?: (e: SessionEvent) => void },
): Complete {
  const api = createApi(ctx);
  return async (req) => {
    const parley = { replyId: req.replyId, purpose: req.purpose, sources: req.sources, tab: ctx.tab };
    const seen = { done: false };
    const follow = loadFollow();
    follow.catch(() => {});
    // Stop reaches the worker, which ends the provider's request: a reply does not end with its reader.
    const stop = () => void follow.then((f) => f.stopReply(ctx, req.replyId));
    req.signal?.addEventListener("abort", stop);
    let body = null;
    try {
      if (!req.resume)
        body = await api.streamChat(ctx.auth().token, { stream: true, messages: req.messages, parley }, req.signal);
    } catch (e) {
      // Already streaming (a retry crossed a reply that went on at the worker): follow that one. A 409
      // `taken_over` (a person handles the chat now) is not that.
      if (!isHttpError(e) || e.code !== "conflict") throw e;
    }
    // The reply's SSE text, the response's and after a break the rest from the live channel (follow.ts).
    const m = await follow.catch(() => null);
    const texts = m
      ? m.replyText({ ...ctx, replyId: req.replyId, body, signal: req.signal })
      : bodyText(body!, req.signal);
    const reply = emptyReply();
    const decode = chatChunkDecoder(seen);
    // The text is reported once per piece read (a read of the response can bring many chunks when the
    // page was busy), not once per chunk: the page draws it at most every 50 ms anyway, and each report
    // costs the page a round of signals.
    const take = (chunks: ChatChunk[]) => {
      let news = false;
      try {
        for (const chunk of chunks) {
          // A provider may report a failure mid-stream as an `error` event; the proxy passes it on.
          const inband = (chunk as { error?: { code?: string; message?: string } }).error;
          if (inband) throw new ProtocolError(inband.code ?? "upstream_error", inband.message ?? "The reply broke off");
          // The worker's own event ahead of the reply (the emergency guard's card): shown before any text.
          const event = (chunk as { [STREAM_EXTENSION]?: { event?: SessionEvent } })[STREAM_EXTENSION]?.event;
          if (event?.type === EVENT_TYPES.escalationRaised) ctx.onEvent?.(event);
          // The finish reason is news too: the text is complete, so the page may draw it at once.
          const open = reply.finishReason === null;
          if (foldChunk(reply, chunk) || (open && reply.finishReason !== null)) news = true;
        }
      } finally {
        // What came before a failure in the same piece is shown, as it would have been chunk by chunk.
        if (news) req.onText?.(reply.content, reply.reasoning, reply.finishReason !== null);
      }
    };
    try {
      for await (const text of texts) {
        take(decode(text));
        if (seen.done) break;
      }
      if (!seen.done) take(decode());
    } finally {
      req.signal?.removeEventListener("abort", stop);
    }
    // Neither [DONE] nor a finish reason: the provider broke off (the live channel says the reply
    // ended so), or it was stopped elsewhere.
    if (!seen.done && reply.finishReason === null)
      throw new ProtocolError("upstream_error", "The reply broke off before it finished");
    const end = endReply(reply);
    if (end.finishReason === "error") {
      throw new ProtocolError("upstream_error", "The provider ended the reply with an error");
    }
    return { text: end.content, reasoning: end.reasoning, toolCalls: end.toolCalls, finishReason: end.finishReason };
  };
}
