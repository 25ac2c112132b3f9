import type { ChatMessage, Purpose, ToolCall } from "../../shared/chat.ts";
import { EVENT_TYPES, STREAM_EXTENSION } from "../../shared/protocol.ts";
import type { SessionEvent } from "../../shared/session.ts";
import { emptyReply, endReply, foldChunk } from "../../shared/reply-fold.ts";
import { createApi, type ApiContext } from "../transport/api.ts";
import { ProtocolError } from "../transport/errors.ts";

export interface CompletionRequest {
  messages: ChatMessage[];
  replyId: string;
  purpose?: Purpose;
  sources?: string;
  signal?: AbortSignal;
  /** Called with the answer and the reasoning so far each time a piece of either arrives. */
  onText?: (text: string, reasoning?: string) => void;
}

export interface StepResult {
  text: string;
  /** The model's thinking, split from the answer (shared/reasoning.ts); "" when it showed none. */
  reasoning?: string;
  toolCalls: ToolCall[];
  finishReason: string | null;
}

/** One completion; the loop and the router only see this function, so tests can script it. */
export type Complete = (req: CompletionRequest) => Promise<StepResult>;

/** Completions through the Parley proxy, streamed, folded as the worker folds its copy (shared/reply-fold.ts). */
export function proxyCompletion(
  ctx: ApiContext & { token: () => string; onEvent?: (e: SessionEvent) => void },
): Complete {
  const api = createApi(ctx);
  return async (req) => {
    const parley = { replyId: req.replyId, purpose: req.purpose, sources: req.sources };
    const seen = { done: false };
    const chunks = await api.streamChat(
      ctx.token(),
      { stream: true, messages: req.messages, parley },
      req.signal,
      seen,
    );
    const reply = emptyReply();
    for await (const chunk of chunks) {
      // A provider may report a failure mid-stream as an `error` event; the proxy passes it on.
      const inband = (chunk as { error?: { code?: string; message?: string } }).error;
      if (inband) throw new ProtocolError(inband.code ?? "upstream_error", inband.message ?? "The reply broke off");
      // The worker's own event ahead of the reply (the emergency guard's card): shown before any text.
      const event = (chunk as { [STREAM_EXTENSION]?: { event?: SessionEvent } })[STREAM_EXTENSION]?.event;
      if (event?.type === EVENT_TYPES.escalationRaised) ctx.onEvent?.(event);
      if (foldChunk(reply, chunk)) req.onText?.(reply.content, reply.reasoning);
    }
    // Neither [DONE] nor a finish reason: the provider broke off, and the proxy could only end the
    // response early (its status had long been sent).
    if (!seen.done && reply.finishReason === null)
      throw new ProtocolError("upstream_error", "The reply broke off before it finished");
    const end = endReply(reply);
    if (end.finishReason === "error") {
      throw new ProtocolError("upstream_error", "The provider ended the reply with an error");
    }
    return { text: end.content, reasoning: end.reasoning, toolCalls: end.toolCalls, finishReason: end.finishReason };
  };
}
