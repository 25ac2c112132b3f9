import { ReplyAccumulator, type AccumulatedReply } from "./reply-accumulator.ts";
import type { ProviderStream } from "./model-reply.ts";

export type OnEnd = (reply: AccumulatedReply, cut: boolean) => void;

export interface Relay {
  /** The client's body: the provider's bytes, unchanged and unbuffered. */
  body: ReadableStream<Uint8Array>;
  /** Settles after `onEnd` ran; keep the request alive for it (waitUntil). */
  ended: Promise<void>;
}

/**
 * Passes the provider's SSE bytes to the client and keeps a copy, parsed into the reply once at
 * the end. The bytes flow natively: the provider's body is teed, one branch piped to the client
 * inside the runtime, the other left to queue and read in a few large reads once the pipe is done.
 * That costs far less isolate CPU than reading every chunk in JavaScript (bench:proxy measures
 * it), and on Workers CPU time is what is billed and what bounds the streams one isolate can carry.
 *
 * `onEnd` runs exactly once, with the reply as far as it came, cut when it did not reach its end
 * ([DONE] or a finish reason). The pipe fails when the provider breaks off (the runtime then ends the client's
 * response without its last chunk, so the client sees a broken stream: the HTTP status has long
 * been sent) or when the client goes away; either way the provider's request is ended, so no
 * tokens are spent on a reply nobody reads, and the copy keeps everything that had arrived.
 *
 * The body must be a network stream (a provider reached by fetch) or one built in JavaScript (the
 * demo model): workerd cannot pipe its other in-memory bodies into an IdentityTransformStream.
 */
export function relayStream(stream: ProviderStream, onEnd: OnEnd): Relay {
  const [toClient, toCopy] = stream.rest.tee();
  const { readable, writable } = new IdentityTransformStream();
  const piped = (async () => {
    if (stream.first) {
      const writer = writable.getWriter();
      await writer.write(stream.first);
      writer.releaseLock();
    }
    await toClient.pipeTo(writable);
  })().catch(() => stream.abort?.());
  const ended = piped.then(async () => {
    // One timer tick first: the runtime then sends the end of the response before this work, which
    // would otherwise hold it back.
    await new Promise((r) => setTimeout(r, 1));
    const acc = new ReplyAccumulator();
    if (stream.first) acc.feed(stream.first);
    // What queued in the copy's branch: whole, up to the break when there was one.
    const reader = toCopy.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) acc.feed(next.value);
    } catch {
      /* the break: what arrived before it is kept, and the reply is incomplete */
    }
    const reply = acc.result();
    // A reply that reached its end ([DONE] or a finish reason) is whole even when the pipe failed
    // after it: the widget stops reading at [DONE] and cancels, which can beat the provider's close.
    onEnd(reply, !reply.complete);
  });
  return { body: readable, ended };
}
