import type { AttachFrame, ClientFrame, LiveFrame } from "../../shared/live.ts";
import type { SessionEvent } from "../../shared/session.ts";
import type { LiveReply } from "./live-reply.ts";

/** An SSE client (the fallback where WebSockets are blocked): a writer, and the one reply it follows, if any. */
interface SseClient {
  writer: WritableStreamDefaultWriter<Uint8Array>;
  /** Follows only this reply and ends with it (a chat request's reattachment); else the whole channel. */
  reply?: string;
  /** The channel's page (tab): the text of the replies it streams itself is not sent to it. */
  tab?: string;
}

/** A socket's state kept across hibernation (serializeAttachment): it asked for frames, from this page (tab). */
interface SocketTag {
  attached: boolean;
  tab?: string;
}

const enc = new TextEncoder();
/** A page's id as its socket names it (the widget's are UUIDs); a longer one is ignored. */
const MAX_TAB = 64;
/** How long a finished reply's text stays for a late reattachment; after that the log has the message. */
const KEEP_ENDED_MS = 120_000;
/** SSE comment lines keep proxies from closing an idle fallback channel. */
const SSE_HEARTBEAT_MS = 25_000;

const tabOf = (frame: AttachFrame) =>
  typeof frame.tab === "string" && frame.tab.length <= MAX_TAB ? frame.tab : undefined;

/**
 * Who is attached to a session and what they are sent: the Durable Object's sockets (hibernation
 * API: `ctx.getWebSockets()` finds them after a wake-up) and SSE clients, the replies being streamed
 * and the ones just finished. Every frame is built once and sent to each client.
 */
export class LiveHub {
  readonly replies = new Map<string, LiveReply>();
  /** The page (tab) that streams each reply over its chat response: its socket is not sent the reply's text. */
  private readonly streamers = new Map<string, string>();
  private readonly sse = new Set<SseClient>();
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  /** The tabs of the attached sockets ("" unnamed); unknown after a wake-up, an attach or a close (then asked once). */
  private socketTabs: string[] | undefined;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly eventsAfter: (seq: number) => Array<{ seq: number; event: SessionEvent }>,
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
    for (const c of this.sse) if (c.reply === reply.id) this.closeSse(c);
    const now = Date.now();
    for (const [id, r] of this.replies) {
      if (!r.ended || now - r.endedAt <= KEEP_ENDED_MS) continue;
      this.replies.delete(id);
      this.streamers.delete(id);
    }
  }

  /** A WebSocket upgrade: accepted with the hibernation API (an idle socket costs nothing). */
  accept(request: Request): Response {
    if (request.headers.get("upgrade") !== "websocket") return new Response(null, { status: 426 });
    const [client, server] = Object.values(new WebSocketPair());
    this.ctx.acceptWebSocket(server);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** A frame from a socket: an attach is answered here; a stop's reply id is the caller's to stop. */
  async frame(ws: WebSocket, message: string | ArrayBuffer): Promise<string | null> {
    let frame: ClientFrame;
    try {
      frame = JSON.parse(typeof message === "string" ? message : new TextDecoder().decode(message)) as ClientFrame;
    } catch {
      ws.close(1003, "frames are JSON");
      return null;
    }
    if (frame.t === "attach" && Number.isInteger(frame.after)) await this.attachSocket(ws, frame);
    else if (frame.t === "stop" && typeof frame.id === "string") return frame.id;
    else ws.close(1003, "unknown frame");
    return null;
  }

  /** A socket's attach: what it missed (log entries after `after`, each reply from its offset), then live. */
  async attachSocket(ws: WebSocket, frame: AttachFrame): Promise<void> {
    await this.readCopies(frame);
    for (const f of this.catchUp(frame)) ws.send(JSON.stringify(f));
    const tab = tabOf(frame);
    ws.serializeAttachment({ attached: true, ...(tab ? { tab } : {}) } satisfies SocketTag);
    this.socketTabs = undefined;
  }

  /** The SSE form of the same: a response body that gets the catch-up, then live frames. */
  async attachSse(frame: AttachFrame, reply?: string): Promise<ReadableStream<Uint8Array>> {
    await this.readCopies(frame);
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const tab = reply ? undefined : tabOf(frame);
    const client: SseClient = { writer: writable.getWriter(), ...(reply ? { reply } : {}), ...(tab ? { tab } : {}) };
    for (const f of this.catchUp(frame, reply)) this.writeSse(client, JSON.stringify(f));
    const r = reply ? this.replies.get(reply) : undefined;
    if (reply && (!r || r.ended)) {
      this.closeSse(client);
      return readable;
    }
    this.sse.add(client);
    this.heartbeat ??= setInterval(() => {
      for (const c of this.sse) void c.writer.write(enc.encode(": keep-alive\n\n")).catch(() => this.closeSse(c));
    }, SSE_HEARTBEAT_MS);
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
      const tag = ws.deserializeAttachment() as SocketTag | null;
      return tag?.attached ? [tag.tab ?? ""] : [];
    });
    return this.socketTabs;
  }

  /** To every attached client; `skipTab`: not to the sockets of that page. */
  private broadcast(frame: LiveFrame, reply?: string, skipTab?: string): void {
    if (!this.attachedTabs().some((t) => !skipTab || t !== skipTab) && !this.sse.size) return;
    const sockets = this.ctx.getWebSockets();
    const json = JSON.stringify(frame);
    for (const ws of sockets) {
      const tag = ws.deserializeAttachment() as SocketTag | null;
      if (!tag?.attached || (skipTab && tag.tab === skipTab)) continue;
      try {
        ws.send(json);
      } catch {
        /* closing: its close handler forgets it */
      }
    }
    for (const c of this.sse) if (c.reply ? c.reply === reply : !skipTab || c.tab !== skipTab) this.writeSse(c, json);
  }

  private writeSse(c: SseClient, json: string): void {
    c.writer.write(enc.encode(`data: ${json}\n\n`)).catch(() => this.closeSse(c));
  }

  private closeSse(c: SseClient): void {
    this.sse.delete(c);
    c.writer.close().catch(() => {});
    if (!this.sse.size && this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = null;
    }
  }
}
