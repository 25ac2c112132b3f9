import type { ReplyEnd } from "../../shared/session/live.ts";
import type { ProviderStream } from "../llm/model-reply.ts";
import { ReplyAccumulator, type AccumulatedReply } from "../llm/reply-accumulator.ts";

/** How long a cut reply's response waits for its reader to take the bytes already piped, before it breaks. */
export const DRAIN_MS = 1_000;

export interface LiveReplyHooks {
  /** Whether text is wanted as each chunk arrives (a client follows, a checkpoint is due); else it waits. */
  wantsText(): boolean;
  /** Text `d` at offset `o` arrived: for every attached client (and the checkpoint). */
  onText(o: number, d: string): void;
  /** Runs once, with the reply as far as it came; `cut` when it did not reach its end or was stopped. */
  onEnd(reply: AccumulatedReply, cut: boolean): void;
}

/**
 * At most this long between reads of the object's copy while nobody follows the reply: the copy's
 * bytes wait in the runtime meanwhile, and one read takes them all (the checkpoint each second).
 */
const NAP_MS = 1_000;

/**
 * One streamed reply, consumed by the session's Durable Object rather than by the visitor's
 * request: the provider's request lives as long as the object, not as long as the page. The
 * provider's body is teed: the runtime pipes one copy to the HTTP response that asked for it (no
 * JavaScript per chunk), and this object reads the other for the text, chunk by chunk while a client
 * follows the reply (live channel) and else in a few reads (each second, and at the end). A client
 * that goes away stops nothing: only `stop()` ends the provider's request.
 */
export class LiveReply {
  private readonly parts: string[] = [];
  /** Bytes read but not yet decoded: text is made only when someone wants it (hooks.wantsText). */
  private readonly pending: Uint8Array[] = [];
  private readonly decoder = new TextDecoder();
  private chars = 0;
  ended: ReplyEnd | null = null;
  endedAt = 0;
  private stopped = false;
  /** While the runtime pipes the client's copy, the object's copy may be read lazily. */
  private piping = true;
  /** Ends the pipe to the client (Stop, or a cut reply's reader that does not take its last bytes). */
  private readonly halt = new AbortController();
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  private wakeUp: (() => void) | null = null;
  /** Waiting in readTo for the copy's next read. */
  private readonly readers: Array<() => void> = [];
  private settle!: () => void;
  /** Settles once the reply has ended and its record is stored (hooks.onEnd ran): an erasure waits for it. */
  readonly finished = new Promise<void>((resolve) => (this.settle = resolve));

  constructor(
    readonly id: string,
    /** The turn's purpose: a restored page resumes a `chat` reply, not a router's classification. */
    readonly purpose: string,
    private readonly stream: ProviderStream,
    private readonly hooks: LiveReplyHooks,
  ) {}

  /**
   * Characters so far: the offset of the next piece of text. Asked as a client attaches (the live
   * channel's catch-up): from then on the copy is read as it comes, so the client gets it live.
   */
  get length(): number {
    this.wake();
    this.flush();
    return this.chars;
  }

  /**
   * The text from `from` on (what a client that has `from` characters is missing). It may lag what
   * the client's response already carried by the bytes not read yet (at most NAP_MS of the reply);
   * a client that has more skips what it has (the live frames carry their offset).
   */
  text(from = 0): string {
    this.flush();
    if (this.parts.length > 1) this.parts.splice(0, this.parts.length, this.parts.join(""));
    return (this.parts[0] ?? "").slice(from);
  }

  /**
   * Reads the provider's stream to its end while the runtime pipes the same bytes to `out`, then
   * stores the reply (hooks.onEnd) before `out` ends: a client that read it to its end finds the
   * reply in the log. The object's copy is never behind what the client got once the reply ends: a
   * tee's branch keeps what it holds when the provider breaks off and gives it before the break.
   */
  async run(out: WritableStream<Uint8Array>): Promise<void> {
    const { first, rest } = this.stream;
    const [toClient, copy] = rest.tee();
    const piped = this.pipe(first, toClient, out);
    const reader = (this.reader = copy.getReader());
    try {
      if (first) this.take(first);
      for (;;) {
        if (this.piping && !this.hooks.wantsText()) await this.nap();
        const next = await reader.read();
        if (next.done) break;
        this.take(next.value);
      }
    } catch {
      /* the provider broke off (or Stop ended its request): what arrived is kept */
    }
    this.flush(true);
    const acc = new ReplyAccumulator();
    acc.feedText(this.text());
    const reply = acc.result();
    const cut = this.stopped || !reply.complete;
    this.ended = cut ? "interrupted" : "complete";
    this.endedAt = Date.now();
    for (const r of this.readers.splice(0)) r();
    try {
      this.hooks.onEnd(reply, cut);
    } finally {
      this.settle();
    }
    // A cut reply's response is broken by the route that answers it (chat/stream-turn.ts), once its
    // reader had time to take what came: a pipe that met the break leaves `out` unable to end.
    if (cut) {
      this.halt.abort();
      return;
    }
    await piped;
    out
      .getWriter()
      .close()
      .catch(() => {});
  }

  /** The client's copy: the first bytes (already read, to know the reply began), then the runtime's pipe. */
  private async pipe(first: Uint8Array | null, body: ReadableStream<Uint8Array>, out: WritableStream<Uint8Array>) {
    let piping = false;
    try {
      if (first) {
        const writer = out.getWriter();
        await writer.write(first);
        writer.releaseLock();
      }
      piping = true;
      // Neither closed nor aborted here: a pipe that passed the provider's break on at once could
      // have its reader's side drop the bytes it had not taken yet (run() and the route end it).
      await body.pipeTo(out, { preventClose: true, preventAbort: true, signal: this.halt.signal });
    } catch {
      /* the provider broke off, the client went away, or Stop */
    } finally {
      if (!piping) void body.cancel().catch(() => {});
      this.piping = false;
      this.wake();
    }
  }

  /**
   * Resolves once the object's copy holds `offset` characters or the reply has ended: a client that
   * attaches with that much of the reply (its response carried it) is then sent exactly the rest.
   * The bytes it lacks are waiting in the copy's branch, so one read brings them.
   */
  async readTo(offset: number): Promise<void> {
    while (!this.ended && this.length < offset) await new Promise<void>((r) => this.readers.push(r));
  }

  private take(bytes: Uint8Array): void {
    this.pending.push(bytes);
    if (this.hooks.wantsText()) this.flush();
    for (const r of this.readers.splice(0)) r();
  }

  /** Waits until the next read is due: NAP_MS, a client that attaches, the pipe's end, or Stop. */
  private nap(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake(), NAP_MS);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private wake(): void {
    const wake = this.wakeUp;
    this.wakeUp = null;
    wake?.();
  }

  /** Decodes the bytes read so far into text, for the hooks (clients, checkpoint) and `text()`. */
  private flush(last = false): void {
    let d = "";
    for (const bytes of this.pending) d += this.decoder.decode(bytes, { stream: true });
    this.pending.length = 0;
    if (last) d += this.decoder.decode();
    if (!d) return;
    const o = this.chars;
    this.parts.push(d);
    this.chars += d.length;
    this.hooks.onText(o, d);
  }

  /** The visitor's Stop (from any tab): ends the provider's request; the text so far is kept, interrupted. */
  stop(): void {
    if (this.ended) return;
    this.stopped = true;
    this.stream.abort?.();
    // Nothing more for the client; the object's copy is read on to the break, so it has all the client got.
    this.halt.abort();
    this.wake();
    // A provider's body that does not break when its request is aborted still ends the read.
    setTimeout(() => void this.reader?.cancel().catch(() => {}), DRAIN_MS);
  }
}
