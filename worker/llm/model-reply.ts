import type { ChatCompletion } from "../../shared/chat/chat.ts";

/**
 * A streamed reply on its way to the client: its first chunk, already read (to know it had begun
 * while a retry was still possible), the rest of the provider's body, and `abort`, which ends the
 * provider's request (its connection).
 */
export interface ProviderStream {
  first: Uint8Array | null;
  rest: ReadableStream<Uint8Array>;
  abort?(): void;
}

/** What callModel answers: the whole completion for a JSON request, the stream for a streamed one. */
export type ModelReply = { kind: "json"; completion: ChatCompletion } | { kind: "stream"; stream: ProviderStream };
