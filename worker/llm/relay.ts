import { errorBody } from "../../shared/errors.ts";
import { ReplyAccumulator, type AccumulatedReply } from "./reply-accumulator.ts";

const enc = new TextEncoder();
/** What the client gets, in-band, when the provider's stream breaks: the HTTP status has long been sent. */
const BROKEN = enc.encode(`data: ${JSON.stringify(errorBody("upstream_error", "The provider's stream broke off before the reply was complete"))}\n\n`);

/**
 * A streamed reply on its way to the client: the provider's body, its first chunk already read (to
 * know it had begun, while a retry was still possible), and `abort`, which ends the provider's
 * request (its connection).
 */
export interface ProviderStream {
  first: Uint8Array | null;
  reader: ReadableStreamDefaultReader<Uint8Array>;
  abort?(): void;
}

export type OnEnd = (reply: AccumulatedReply, cut: boolean) => void;

/**
 * Passes the provider's SSE bytes to the client chunk by chunk (pull-driven, so nothing is buffered
 * beyond what the client reads) and keeps a copy, parsed into the reply once at the end. `onEnd`
 * runs exactly once, with the reply as far as it came: at the end of the stream; when the provider
 * breaks off (the client gets an in-band error event and a clean end: the HTTP status has long been
 * sent); or when the client goes away (then the provider's request is ended, so no tokens are
 * spent on a reply nobody reads).
 *
 * Why not a native pipe (tee, pipeTo into an IdentityTransformStream), which halves the isolate's
 * CPU per stream: when the provider's connection breaks, workerd's native pump errors the
 * destination too (preventAbort notwithstanding), so the client would get a torn response instead
 * of the in-band error, and the copy would lose the partial reply.
 */
export function relayStream(stream: ProviderStream, onEnd: OnEnd): ReadableStream<Uint8Array> {
  const { reader } = stream;
  let pending = stream.first;
  const copy: Uint8Array[] = [];
  let ended = false;
  const end = (cut: boolean) => {
    if (ended) return;
    ended = true;
    const acc = new ReplyAccumulator();
    for (const part of copy) acc.feed(part);
    const reply = acc.result();
    onEnd(reply, cut || !reply.complete);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (pending) {
          controller.enqueue(pending);
          copy.push(pending);
          pending = null;
          return;
        }
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch {
          end(true);
          controller.enqueue(BROKEN);
          controller.close();
          return;
        }
        if (next.done) {
          end(false);
          controller.close();
          return;
        }
        controller.enqueue(next.value);
        copy.push(next.value);
      },
      cancel(reason) {
        end(true);
        reader.cancel(reason).catch(() => {});
        stream.abort?.();
      },
    },
    { highWaterMark: 0 },
  );
}
