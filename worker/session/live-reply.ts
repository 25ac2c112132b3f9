import type { ReplyEnd } from "../../shared/live.ts";
import type { ProviderStream } from "../llm/model-reply.ts";
import { ReplyAccumulator, type AccumulatedReply } from "../llm/reply-accumulator.ts";

/** How long a cut reply's response waits for its reader to take the bytes already written, before it breaks. */
const DRAIN_MS = 1_000;

export interface LiveReplyHooks {
  /** Whether text is wanted as each chunk arrives (a client follows, a checkpoint is due); else it waits. */
  wantsText(): boolean;
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
  /** Bytes read but not yet decoded: text is made only when someone wants it (hooks.wantsText). */
  private readonly pending: Uint8Array[] = [];
  private readonly decoder = new TextDecoder();
  private chars = 0;
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

  /** Characters so far: the offset of the next piece of text. */
  get length(): number {
    this.flush();
    return this.chars;
  }

  /** The text from `from` on (what a client that has `from` characters is missing). */
  text(from = 0): string {
    this.flush();
    if (this.parts.length > 1) this.parts.splice(0, this.parts.length, this.parts.join(""));
    return (this.parts[0] ?? "").slice(from);
  }

  /**
   * Reads the provider's stream to its end; `out` gets the bytes, written here in order, for as long
   * as its reader wants them, so a client never has more of the reply than this object's copy. The
   * bytes become text only when someone wants it (`flush`).
   */
  async run(out: WritableStreamDefaultWriter<Uint8Array>): Promise<void> {
    let outOpen = true;
    let written: Promise<void> = Promise.resolve();
    const take = (bytes: Uint8Array) => {
      if (outOpen && bytes.length) written = out.write(bytes).catch(() => void (outOpen = false));
      this.pending.push(bytes);
      if (this.hooks.wantsText()) this.flush();
    };
    const reader = (this.reader = this.stream.rest.getReader());
    try {
      if (this.stream.first) take(this.stream.first);
      for (let next = await reader.read(); !next.done; next = await reader.read()) take(next.value);
    } catch {
      /* the provider broke off (or Stop cancelled the read): what arrived is kept */
    }
    this.flush(true);
    const acc = new ReplyAccumulator();
    acc.feedText(this.text());
    const reply = acc.result();
    const cut = this.stopped || !reply.complete;
    this.ended = cut ? "interrupted" : "complete";
    this.endedAt = Date.now();
    // Stored before the response ends: a client that read it to its end finds the reply in the log.
    this.hooks.onEnd(reply, cut);
    // A cut reply ends the response abruptly, as a broken stream: a client reading it sees no [DONE].
    // An abort drops what its reader has not taken yet: the client reading on gets those bytes first.
    if (cut) await Promise.race([written, new Promise((r) => setTimeout(r, DRAIN_MS))]);
    if (outOpen) (cut ? out.abort() : out.close()).catch(() => {});
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
    void this.reader?.cancel().catch(() => {});
  }
}
