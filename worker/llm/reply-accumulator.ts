import { createParser, type EventSourceParser } from "eventsource-parser";
import { mergeToolCallDeltas, type ChatChunk, type ToolCall, type Usage } from "../../shared/chat.ts";

export interface AccumulatedReply {
  content: string;
  toolCalls: ToolCall[];
  usage: Usage | null;
  finishReason: string | null;
  /** True once `data: [DONE]` (or a finish_reason) was seen: the reply reached its end. */
  complete: boolean;
}

/**
 * Reads the bytes of an OpenAI SSE stream as they pass through the proxy and rebuilds the
 * assistant message (text, tool calls by index, usage), so the session records the reply from
 * the same stream the visitor received — the client never posts it a second time.
 */
export class ReplyAccumulator {
  private readonly decoder = new TextDecoder();
  private readonly parser: EventSourceParser;
  private content = "";
  private readonly calls: ToolCall[] = [];
  private usage: Usage | null = null;
  private finishReason: string | null = null;
  private done = false;

  constructor() {
    this.parser = createParser({ onEvent: (e) => this.onData(e.data) });
  }

  feed(bytes: Uint8Array): void {
    this.parser.feed(this.decoder.decode(bytes, { stream: true }));
  }

  private onData(data: string): void {
    if (data === "[DONE]") {
      this.done = true;
      return;
    }
    let chunk: ChatChunk;
    try {
      chunk = JSON.parse(data) as ChatChunk;
    } catch {
      return; // a provider's keep-alive or comment; nothing to record
    }
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) return;
    if (typeof choice.delta?.content === "string") this.content += choice.delta.content;
    if (choice.delta?.tool_calls) mergeToolCallDeltas(this.calls, choice.delta.tool_calls);
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  result(): AccumulatedReply {
    return {
      content: this.content,
      toolCalls: this.calls.filter(Boolean),
      usage: this.usage,
      finishReason: this.finishReason,
      complete: this.done || this.finishReason !== null,
    };
  }
}
