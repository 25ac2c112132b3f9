import type { AttachFrame, Eraser, LiveFrame } from "../../shared/session/live.ts";
import { readClientFrame } from "./client-frame.ts";
import type { LiveClient } from "./live-limits.ts";
import type { LiveReply } from "./live-reply.ts";
import { acceptSocket, POLICY_CLOSE, tagOf, UNSUPPORTED_CLOSE, type SocketTag } from "./live-socket.ts";
import type { SocketOpener } from "./live-upgrade.ts";
import { SseClients, type SseClient } from "./sse-clients.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

/** How long a finished reply's text stays for a late reattachment; after that the log has the message. */
const KEEP_ENDED_MS = 120_000;

const tabOf = (frame: AttachFrame) => frame.tab || undefined;

/**
 * Who is attached to a session and what they are sent: the Durable Object's sockets (hibernation
 * API: `ctx.getWebSockets()` finds them after a wake-up) and SSE clients, the replies being streamed
 * and the ones just finished. Every frame is built once and sent to each client.
 */
export class LiveHub {
  readonly replies = new Map<string, LiveReply>();
  /** The page (tab) that streams each reply over its chat response: its socket is not sent the reply's text. */
  private readonly streamers = new Map<string, string>();
  private readonly sse = new SseClients();
  /** The tabs of the attached sockets ("" unnamed); unknown after a wake-up, an attach or a close (then asked once). */
  private socketTabs: string[] | undefined;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly eventsAfter: (seq: number) => Array<{ seq: number; event: SessionEvent }>,
    /** Counts one frame in the session's request window (its rate a minute); false when it is full. */
    private readonly admitFrame: (perMinute: number) => boolean,
  ) {}

  /** New log entries, to every attached client. */
  events(entries: Array<{ seq: number; event: SessionEvent }>): void {
    for (const { seq, event } of entries) this.broadcast({ t: "e", seq, event });
  }

  /** A reply begins; `tab` names the page that streams it over its chat response (it needs no copy). */
  add(reply: LiveReply, tab?: string): void {
    this.replies.set(reply.id, reply);
    if (tab) this.streamers.set(reply.id, tab);
  }

  /**
   * Someone gets a reply's text as it arrives: an attached socket of another page than the one that
   * streams it, or an SSE client of it or of the channel (the streaming page's own reattachment).
   */
  listening(reply: string): boolean {
    const tab = this.streamers.get(reply);
    if (this.attachedTabs().some((t) => !t || t !== tab)) return true;
    for (const c of this.sse) if (c.reply ? c.reply === reply : c.tab !== tab || !tab) return true;
    return false;
  }

  /** A socket closed: whether any is still attached is asked again when it matters. */
  socketClosed(): void {
    this.socketTabs = undefined;
  }

  /** Text of a reply: to every client but the page that streams it (it has the same bytes already). */
  text(id: string, o: number, d: string): void {
    this.broadcast({ t: "r", id, o, d }, id, this.streamers.get(id));
  }

  ended(reply: LiveReply): void {
    this.broadcast({ t: "end", id: reply.id, status: reply.ended ?? "interrupted" }, reply.id);
    for (const c of this.sse) if (c.reply === reply.id) this.sse.close(c);
    const now = Date.now();
    for (const [id, r] of this.replies) {
      if (!r.ended || now - r.endedAt <= KEEP_ENDED_MS) continue;
      this.replies.delete(id);
      this.streamers.delete(id);
    }
  }

  /**
   * The conversation was erased: every client hears it (staff on the console's Live page, the
   * visitor's other tabs), then every socket and stream closes. The replies' copies are dropped.
   */
  erased(by: Eraser): void {
    const json = JSON.stringify({ t: "erased", by } satisfies LiveFrame);
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(json);
        ws.close(1000, "erased");
      } catch {
        /* closing already */
      }
    }
    for (const c of this.sse) {
      this.sse.write(c, json);
      this.sse.close(c);
    }
    this.replies.clear();
    this.streamers.clear();
    this.socketTabs = undefined;
  }

  /** A WebSocket upgrade (live-socket.ts). */
  accept(request: Request, opener: SocketOpener): Response {
    return acceptSocket(this.ctx, request, opener);
  }

  /**
   * A frame from a socket: its one attach is answered here; a stop, counted in the session's request
   * window, gives its reply id to the caller to stop. A second attach (each re-sends the whole log),
   * a stop past the window or a frame that is not one closes the socket.
   */
  async frame(ws: WebSocket, message: string | ArrayBuffer): Promise<string | null> {
    const frame = readClientFrame(message);
    if (!frame) {
      ws.close(UNSUPPORTED_CLOSE, "unknown frame");
      return null;
    }
    const tag = tagOf(ws);
    if (frame.t === "stop") {
      if (this.admitFrame(tag.perMinute)) return frame.id;
      ws.close(POLICY_CLOSE, "too many frames for this session");
    } else if (tag.asked || tag.attached) ws.close(POLICY_CLOSE, "one attach per socket");
    else await this.attachSocket(ws, frame, tag);
    return null;
  }

  /** A socket's attach: what it missed (log entries after `after`, each reply from its offset), then live. */
  private async attachSocket(ws: WebSocket, frame: AttachFrame, tag: SocketTag): Promise<void> {
    // Marked first: another attach arriving while the copies are read is a second one.
    ws.serializeAttachment({ ...tag, asked: true } satisfies SocketTag);
    await this.readCopies(frame);
    for (const f of this.catchUp(frame)) ws.send(JSON.stringify(f));
    const tab = tabOf(frame);
    ws.serializeAttachment({ ...tag, asked: true, attached: true, ...(tab ? { tab } : {}) } satisfies SocketTag);
    this.socketTabs = undefined;
  }

  /** Open SSE streams of a kind of client: the visitor's are capped like its sockets. */
  streams(who: LiveClient): number {
    return this.sse.count(who);
  }

  /** The SSE form of the same: a response body that gets the catch-up, then live frames. */
  async attachSse(frame: AttachFrame, who: LiveClient, reply?: string): Promise<ReadableStream<Uint8Array>> {
    await this.readCopies(frame);
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const tab = reply ? undefined : tabOf(frame);
    const client: SseClient = {
      writer: writable.getWriter(),
      who,
      ...(reply ? { reply } : {}),
      ...(tab ? { tab } : {}),
    };
    for (const f of this.catchUp(frame, reply)) this.sse.write(client, JSON.stringify(f));
    const r = reply ? this.replies.get(reply) : undefined;
    if (reply && (!r || r.ended)) this.sse.close(client);
    else this.sse.add(client);
    return readable;
  }

  /**
   * An attach names the offsets its client has: each reply's copy is read that far first (its bytes
   * wait in the runtime, live-reply.ts), so the client is sent exactly the rest.
   */
  private async readCopies(frame: AttachFrame): Promise<void> {
    for (const [id, offset] of Object.entries(frame.replies ?? {})) await this.replies.get(id)?.readTo(offset);
  }

  private catchUp(frame: AttachFrame, only?: string): LiveFrame[] {
    const frames: LiveFrame[] = only
      ? []
      : this.eventsAfter(frame.after).map(({ seq, event }) => ({ t: "e" as const, seq, event }));
    const wanted = frame.replies ?? {};
    for (const r of this.replies.values()) {
      // Unasked, a reply is sent while it streams, unless this page streams it itself.
      const unasked = !(r.id in wanted) && (r.ended || (!!frame.tab && this.streamers.get(r.id) === frame.tab));
      if (only ? r.id !== only : unasked) continue;
      const from = Math.min(Math.max(0, wanted[r.id] ?? 0), r.length);
      const d = r.text(from);
      if (d) frames.push({ t: "r", id: r.id, o: from, d });
      if (r.ended) frames.push({ t: "end", id: r.id, status: r.ended });
    }
    // A reply asked for that is not here: finished long ago, or never began here; the log knows.
    for (const id of only ? [only] : Object.keys(wanted))
      if (!this.replies.has(id)) frames.push({ t: "end", id, status: "gone" });
    return frames;
  }

  /** Cached: a reply's every chunk is broadcast, and asking the runtime for its sockets each time costs. */
  private attachedTabs(): string[] {
    this.socketTabs ??= this.ctx.getWebSockets().flatMap((ws) => {
      const tag = tagOf(ws);
      return tag.attached ? [tag.tab ?? ""] : [];
    });
    return this.socketTabs;
  }

  /** To every attached client; `skipTab`: not to the sockets of that page. */
  private broadcast(frame: LiveFrame, reply?: string, skipTab?: string): void {
    if (!this.attachedTabs().some((t) => !skipTab || t !== skipTab) && !this.sse.size) return;
    const sockets = this.ctx.getWebSockets();
    const json = JSON.stringify(frame);
    for (const ws of sockets) {
      const tag = tagOf(ws);
      if (!tag.attached || (skipTab && tag.tab === skipTab)) continue;
      try {
        ws.send(json);
      } catch {
        /* closing: its close handler forgets it */
      }
    }
    for (const c of this.sse) if (c.reply ? c.reply === reply : !skipTab || c.tab !== skipTab) this.sse.write(c, json);
  }
}
