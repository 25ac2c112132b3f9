import { errorBody } from "../../shared/errors.ts";
import { ReplyAccumulator, type AccumulatedReply } from "./reply-accumulator.ts";

const enc = new TextEncoder();

/**
 * Passes the provider's SSE bytes to the client chunk by chunk (pull-driven, so nothing is
 * buffered beyond what the client reads) and keeps a copy, parsed into the reply once the stream
 * ends: the hot per-chunk path does no decoding or JSON work, which is what 50 concurrent streams
 * on one isolate thread pay for. `onEnd` runs
 * exactly once: at the end of the stream, when the upstream breaks, or when the client goes away
 * (then the upstream request is cancelled so no tokens are spent on a reply nobody reads).
 */
export function relayStream(
  upstream: ReadableStream<Uint8Array> | { first: Uint8Array; reader: ReadableStreamDefaultReader<Uint8Array> },
  onEnd: (reply: AccumulatedReply, cut: boolean) => void,
): ReadableStream<Uint8Array> {
  // A stream whose first chunk the caller already read (to know it had begun) hands that chunk over.
  const reader = "reader" in upstream ? upstream.reader : upstream.getReader();
  let pending = "reader" in upstream ? upstream.first : null;
  const copy: Uint8Array[] = [];
  let ended = false;
  const end = (cut: boolean) => {
    if (ended) return;
    ended = true;
    const acc = new ReplyAccumulator();
    acc.feed(concat(copy));
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
          // Tell the client in-band: the HTTP status has long been sent.
          controller.enqueue(enc.encode(`data: ${JSON.stringify(errorBody("upstream_error", "The provider's stream broke off before the reply was complete"))}\n\n`));
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
      },
    },
    { highWaterMark: 0 },
  );
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
