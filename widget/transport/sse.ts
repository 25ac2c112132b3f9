import type { ChatChunk } from "../../shared/chat/chat.ts";
import { asChatChunk } from "../../shared/chat/reply-fold.ts";
import { ProtocolError } from "./errors.ts";

const DONE = "[DONE]";

function abortError(): Error {
  const err = new Error("The stream was aborted");
  err.name = "AbortError";
  return err;
}

/**
 * Splits an SSE byte stream into the `data` payloads of its events (WHATWG event-stream rules:
 * lines end in LF, CR or CRLF; a blank line ends an event; several `data:` lines join with LF;
 * comments and other fields are ignored). Written out rather than taken from eventsource-parser:
 * the proxy only sends `data:` events, and the widget's size budget is tight (see vite.config.ts).
 */
export function createSseDecoder(onData: (data: string) => void) {
  let buffer = "";
  let data: string[] = [];
  let pendingCR = false;
  const line = (l: string) => {
    if (l === "") {
      if (data.length) onData(data.join("\n"));
      data = [];
      return;
    }
    const colon = l.indexOf(":");
    const field = colon === -1 ? l : l.slice(0, colon);
    if (field !== "data") return;
    let value = colon === -1 ? "" : l.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    data.push(value);
  };
  return {
    feed(text: string) {
      if (pendingCR && text.startsWith("\n")) text = text.slice(1);
      pendingCR = false;
      buffer += text;
      const re = /\r\n|\r|\n/g;
      let start = 0;
      for (let m = re.exec(buffer); m; m = re.exec(buffer)) {
        // A CR at the very end may be the first half of a CRLF split across reads.
        if (m[0] === "\r" && m.index === buffer.length - 1) pendingCR = true;
        line(buffer.slice(start, m.index));
        start = re.lastIndex;
      }
      buffer = buffer.slice(start);
    },
    /** The stream ended: an event without its final blank line is still delivered. */
    end() {
      if (buffer) line(buffer);
      buffer = "";
      line("");
    },
  };
}

/** A `data:` payload checked where it enters: JSON of the chunk's shape, else a ProtocolError. */
function parseChunk(data: string): ChatChunk {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    /* not JSON: not a chunk either */
  }
  const chunk = asChatChunk(value);
  if (!chunk) throw new ProtocolError("bad_response", `Not a chat chunk: ${data.slice(0, 80)}`);
  return chunk;
}

/**
 * The text of a body as it arrives (UTF-8, pieces split inside a character joined). Aborting the
 * signal cancels the body and makes the iterator throw an AbortError.
 */
export async function* bodyText(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<string> {
  const reader = body.getReader();
  const text = new TextDecoder();
  const onAbort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) throw abortError();
      const read = await reader.read().catch((e: unknown) => {
        throw signal?.aborted ? abortError() : e;
      });
      if (signal?.aborted) throw abortError();
      if (read.done) return yield text.decode();
      yield text.decode(read.value, { stream: true });
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    void reader.cancel().catch(() => {});
  }
}

/**
 * The chat chunks in OpenAI-style SSE text (`data: {chunk}` events, then `data: [DONE]`), decoded as
 * each piece of the text arrives: `decode(piece)` answers the chunks the piece completed (an event split
 * across pieces is joined), `decode()` at the text's end those it ended without a blank line after. A
 * malformed chunk throws a ProtocolError; nothing after `[DONE]` counts, and `seen.done` tells whether it came.
 */
export function chatChunkDecoder(seen = { done: false }): (piece?: string) => ChatChunk[] {
  const queue: ChatChunk[] = [];
  const sse = createSseDecoder((data) => {
    if (seen.done) return;
    if (data === DONE) seen.done = true;
    else queue.push(parseChunk(data));
  });
  return (piece) => {
    if (piece === undefined) sse.end();
    else sse.feed(piece);
    return queue.splice(0);
  };
}

/**
 * Reads OpenAI-style SSE text as ChatChunk objects (chatChunkDecoder over pieces of text). The text
 * may come from more than one response (a reply reattached after a break, see completion.ts).
 */
export async function* chatChunks(texts: AsyncIterable<string>, seen = { done: false }): AsyncGenerator<ChatChunk> {
  const decode = chatChunkDecoder(seen);
  for await (const t of texts) {
    yield* decode(t);
    if (seen.done) return;
  }
  yield* decode();
}

/** An SSE body's chunks (chatChunks over bodyText). */
export const readChatChunks = (body: ReadableStream<Uint8Array>, signal?: AbortSignal, seen = { done: false }) =>
  chatChunks(bodyText(body, signal), seen);
