import { createParser, type EventSourceParser } from "eventsource-parser";
import { asChatChunk, emptyReply, endReply, foldChunk, type EndedReply } from "../../shared/chat/reply-fold.ts";

export interface AccumulatedReply extends EndedReply {
  /**
   * True once `data: [DONE]` (or a finish_reason) was seen: the reply reached its end. A provider
   * that finishes with an error (OpenRouter's `error`, Zhipu's `network_error`) cut it short.
   */
  complete: boolean;
}

/**
 * Reads the bytes of an OpenAI SSE stream as they pass through the proxy and rebuilds the
 * assistant message with the shared fold, so the session records the reply from the same stream
 * the visitor received — the client never posts it a second time.
 */
export class ReplyAccumulator {
  private readonly decoder = new TextDecoder();
  private readonly parser: EventSourceParser;
  private readonly reply = emptyReply();
  private done = false;

  constructor() {
    this.parser = createParser({ onEvent: (e) => this.onData(e.data) });
  }

  feed(bytes: Uint8Array): void {
    this.parser.feed(this.decoder.decode(bytes, { stream: true }));
  }

  /** The stream's text, already decoded (a live reply keeps its text, see live-reply.ts). */
  feedText(text: string): void {
    this.parser.feed(text);
  }

  private onData(data: string): void {
    if (data === "[DONE]") {
      this.done = true;
      return;
    }
    let chunk;
    try {
      chunk = asChatChunk(JSON.parse(data));
    } catch {
      return; // a provider's keep-alive or comment; nothing to record
    }
    if (chunk) foldChunk(this.reply, chunk);
  }

  result(): AccumulatedReply {
    const r = endReply(this.reply);
    return { ...r, complete: (this.done || r.finishReason !== null) && r.finishReason !== "error" };
  }
}
