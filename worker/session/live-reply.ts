import type { ReplyEnd } from "../../shared/live.ts";
import type { ProviderStream } from "../llm/model-reply.ts";
import { ReplyAccumulator, type AccumulatedReply } from "../llm/reply-accumulator.ts";

export interface LiveReplyHooks {
  /** Text `d` at offset `o` arrived: for every attached client (and the checkpoint). */
  onText(o: number, d: string): void;
  /** Runs once, with the reply as far as it came; `cut` when it did not reach its end or was stopped. */
  onEnd(reply: AccumulatedReply, cut: boolean): void;
}

/**
 * One streamed reply, consumed by the session's Durable Object rather than by the visitor's
 * request: the provider's request lives as long as the object, not as long as the page. Its text
 * is kept as it arrives (what a client that reattaches is sent from its offset), its bytes are
 * written to the HTTP response that asked for it while that response is read, and a client that
 * goes away stops nothing: only `stop()` ends the provider's request.
 */
export class LiveReply {
  private readonly parts: string[] = [];
  /** Characters so far: the offset of the next piece of text. */
  length = 0;
  ended: ReplyEnd | null = null;
  endedAt = 0;
  private stopped = false;
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;

  constructor(
    readonly id: string,
    /** The turn's purpose: a restored page resumes a `chat` reply, not a router's classification. */
    readonly purpose: string,
    private readonly stream: ProviderStream,
    private readonly hooks: LiveReplyHooks,
  ) {}

  /** The text from `from` on (what a client that has `from` characters is missing). */
  text(from = 0): string {
    if (this.parts.length > 1) this.parts.splice(0, this.parts.length, this.parts.join(""));
    return (this.parts[0] ?? "").slice(from);
  }

  /**
   * Reads the provider's stream to its end. The response that asked for the reply gets the bytes
   * from a tee, piped by the runtime (no JavaScript per chunk on that path); this object reads the
   * other copy for the text. `out` is closed only once the reply is stored, so a client that read
   * the response to its end finds the reply in the log; a cut reply aborts it instead.
   */
  async run(out: WritableStream<Uint8Array>): Promise<void> {
    const [toClient, toRoom] = this.stream.rest.tee();
    const first = this.stream.first;
    const writer = out.getWriter();
    // Ends the client's copy early when the reply is cut (Stop, a provider that broke off).
    const cutPipe = new AbortController();
    const piped = (first?.length ? writer.write(first) : Promise.resolve())
      .then(() => {
        writer.releaseLock();
        return toClient.pipeTo(out, { preventClose: true, signal: cutPipe.signal });
      })
      // The response went away (or the provider broke off): the room's copy reads on regardless.
      .catch(() => void toClient.cancel().catch(() => {}));
    const decoder = new TextDecoder();
    const take = (bytes: Uint8Array, last = false) => {
      const d = decoder.decode(bytes, { stream: !last });
      if (!d) return;
      const o = this.length;
      this.parts.push(d);
      this.length += d.length;
      this.hooks.onText(o, d);
    };
    const reader = (this.reader = toRoom.getReader());
    try {
      if (first) take(first);
      for (let next = await reader.read(); !next.done; next = await reader.read()) take(next.value);
    } catch {
      /* the provider broke off (or Stop cancelled the read): what arrived is kept */
    }
    take(new Uint8Array(0), true);
    const acc = new ReplyAccumulator();
    acc.feedText(this.text());
    const reply = acc.result();
    const cut = this.stopped || !reply.complete;
    this.ended = cut ? "interrupted" : "complete";
    this.endedAt = Date.now();
    // Stored before the response ends: a client that read it to its end finds the reply in the log.
    this.hooks.onEnd(reply, cut);
    if (cut) cutPipe.abort();
    await piped;
    // A cut reply ends the response abruptly, as a broken stream: a client reading it sees no [DONE].
    (cut ? out.abort() : out.close()).catch(() => {});
  }

  /** The visitor's Stop (from any tab): ends the provider's request; the text so far is kept, interrupted. */
  stop(): void {
    if (this.ended) return;
    this.stopped = true;
    this.stream.abort?.();
    void this.reader?.cancel().catch(() => {});
  }
}
