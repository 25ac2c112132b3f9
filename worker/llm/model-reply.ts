import type { ChatCompletion } from "../../shared/chat.ts";

/**
 * A streamed reply on its way to the client: its first chunk, already read (to know it had begun
 * while a retry was still possible), the rest of the provider's body, and `abort`, which ends the
 * provider's request (its connection).
 */
export interface ProviderStream {
  first: Uint8Array | null;
  rest: ReadableStream<Uint8Array>;
  /**
   * The same bytes from the start (`first` included), for passing on untouched: a tee of the
   * provider's body, which the runtime pipes to the client with no JavaScript per chunk.
   */
  whole?: ReadableStream<Uint8Array>;
  abort?(): void;
}

/** `head`, then the bytes of `body` as they come (JavaScript per chunk: only where no `whole` copy exists). */
export function prefixed(head: Uint8Array, body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    start: (c) => c.enqueue(head),
    async pull(c) {
      const next = await reader.read();
      if (next.done) c.close();
      else c.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** What callModel answers: the whole completion for a JSON request, the stream for a streamed one. */
export type ModelReply = { kind: "json"; completion: ChatCompletion } | { kind: "stream"; stream: ProviderStream };
