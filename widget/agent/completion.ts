import { mergeToolCallDeltas, type ChatMessage, type Purpose, type ToolCall } from "../../shared/chat.ts";
import { ROUTES } from "../../shared/protocol.ts";
import { HttpError, request, type FetchLike } from "../transport/http.ts";
import { readChatChunks } from "../transport/sse.ts";

export interface CompletionRequest {
  messages: ChatMessage[];
  replyId: string;
  purpose?: Purpose;
  sources?: string;
  signal?: AbortSignal;
  /** Called with the text so far each time a piece of it arrives. */
  onText?: (text: string) => void;
}

export interface StepResult {
  text: string;
  toolCalls: ToolCall[];
  finishReason: string | null;
}

/** One completion; the loop and the router only see this function, so tests can script it. */
export type Complete = (req: CompletionRequest) => Promise<StepResult>;

/** Completions through the Parley proxy, streamed. */
export function proxyCompletion(ctx: { api: string; token: () => string; fetch?: FetchLike }): Complete {
  return async (req) => {
    const res = await request(ctx.api + ROUTES.chat, {
      body: { stream: true, messages: req.messages, parley: { replyId: req.replyId, purpose: req.purpose, sources: req.sources } },
      token: ctx.token(),
      signal: req.signal,
      fetch: ctx.fetch,
    });
    if (!res.body) throw new HttpError(502, "upstream_error", "The chat response has no body");
    const step: StepResult = { text: "", toolCalls: [], finishReason: null };
    const seen = { done: false };
    for await (const chunk of readChatChunks(res.body, req.signal, seen)) {
      // A provider may report a failure mid-stream as an `error` event; the proxy passes it on.
      const inband = (chunk as { error?: { code?: string; message?: string } }).error;
      if (inband) throw new HttpError(502, inband.code ?? "upstream_error", inband.message ?? "The reply broke off");
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      if (choice.delta?.content) {
        step.text += choice.delta.content;
        req.onText?.(step.text);
      }
      if (choice.delta?.tool_calls) mergeToolCallDeltas(step.toolCalls, choice.delta.tool_calls);
      if (choice.finish_reason) step.finishReason = choice.finish_reason;
    }
    // Neither [DONE] nor a finish reason: the provider broke off, and the proxy could only end the
    // response early (its status had long been sent).
    if (!seen.done && step.finishReason === null) throw new HttpError(502, "upstream_error", "The reply broke off before it finished");
    step.toolCalls = step.toolCalls.filter(Boolean);
    return step;
  };
}
