import type { LiveClient } from "./live-limits.ts";

/** An SSE client (the fallback where WebSockets are blocked): a writer, and the one reply it follows, if any. */
export interface SseClient {
  writer: WritableStreamDefaultWriter<Uint8Array>;
  /** Follows only this reply and ends with it (a chat request's reattachment); else the whole channel. */
  reply?: string;
  /** The channel's page (tab): the text of the replies it streams itself is not sent to it. */
  tab?: string;
  who: LiveClient;
}

const enc = new TextEncoder();
/** SSE comment lines keep proxies from closing an idle fallback channel. */
const SSE_HEARTBEAT_MS = 25_000;

/**
 * The live channel's SSE clients: each is forgotten when a write to it fails (the client left; a
 * heartbeat every 25 s finds out on a quiet channel) or when the reply it follows ends.
 */
export class SseClients implements Iterable<SseClient> {
  private readonly clients = new Set<SseClient>();
  private heartbeat: ReturnType<typeof setInterval> | null = null;

  get size(): number {
    return this.clients.size;
  }

  [Symbol.iterator](): Iterator<SseClient> {
    return this.clients.values();
  }

  /** Open streams of a kind of client: the visitor's are capped like its sockets. */
  count(who: LiveClient): number {
    let n = 0;
    for (const c of this.clients) if (c.who === who) n++;
    return n;
  }

  add(c: SseClient): void {
    this.clients.add(c);
    this.heartbeat ??= setInterval(() => {
      for (const c of this.clients) void c.writer.write(enc.encode(": keep-alive\n\n")).catch(() => this.close(c));
    }, SSE_HEARTBEAT_MS);
  }

  write(c: SseClient, json: string): void {
    c.writer.write(enc.encode(`data: ${json}\n\n`)).catch(() => this.close(c));
  }

  close(c: SseClient): void {
    this.clients.delete(c);
    c.writer.close().catch(() => {});
    if (!this.clients.size && this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = null;
    }
  }
}
