import { createParser, type EventSourceParser } from "eventsource-parser";
import type { ChatChunk, ToolCall, Usage } from "../../shared/chat.ts";

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
  private readonly calls: Array<{ id: string; name: string; arguments: string }> = [];
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
    for (const d of choice.delta?.tool_calls ?? []) {
      const call = (this.calls[d.index] ??= { id: "", name: "", arguments: "" });
      if (d.id) call.id = d.id;
      if (d.function?.name) call.name += d.function.name;
      if (d.function?.arguments) call.arguments += d.function.arguments;
    }
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  result(): AccumulatedReply {
    return {
      content: this.content,
      toolCalls: this.calls.filter(Boolean).map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.arguments } })),
      usage: this.usage,
      finishReason: this.finishReason,
      complete: this.done || this.finishReason !== null,
    };
  }
}
