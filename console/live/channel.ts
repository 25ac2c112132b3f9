import { signal, type Signal } from "@preact/signals";
import { LIVE, type Eraser, type LiveFrame } from "../../shared/session/live.ts";
import { routePath } from "../../shared/wire/route-path.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { emptySession, reduceSession, type SessionState } from "../../shared/session/session.ts";

/** A reply streaming now, as far as it came (its SSE body's text, from the live channel's `r` frames). */
export interface StreamingReply {
  id: string;
  text: string;
}

export interface Channel {
  state: Signal<SessionState>;
  streaming: Signal<StreamingReply[]>;
  /** `open` while frames flow; `retrying` between attempts (the page says so). */
  status: Signal<"connecting" | "open" | "retrying">;
  /** Who erased the conversation while it was open here (the channel then ends; nothing of it is kept). */
  erased: Signal<Eraser | null>;
  close(): void;
}

const PING_MS = 25_000;

/** The visible text of a reply's SSE body so far: its chunks' content deltas. */
export function replyText(sse: string): string {
  let out = "";
  for (const block of sse.split("\n\n")) {
    if (!block.startsWith("data: {")) continue;
    try {
      out += JSON.parse(block.slice(6)).choices?.[0]?.delta?.content ?? "";
    } catch {
      /* the last block may be cut mid-chunk: it comes whole with the next frame */
    }
  }
  return out;
}

/**
 * A conversation's live channel for staff (GET /v1/admin/live/:id/channel, WebSocket; the console's
 * cookie rides along): the session's log folded by the shared reducer, as the visitor's widget folds
 * it, and each reply's text as it streams. Reattaches after a break from the last sequence number
 * and each reply's offset, with backoff, so nothing is lost or doubled.
 */
export function openChannel(sessionId: string): Channel {
  const state = signal<SessionState>(emptySession());
  const streaming = signal<StreamingReply[]>([]);
  const status = signal<"connecting" | "open" | "retrying">("connecting");
  const erased = signal<Eraser | null>(null);
  let seq = 0;
  const replies = new Map<string, string>();
  let ws: WebSocket | null = null;
  let closed = false;
  let attempt = 0;
  let ping: ReturnType<typeof setInterval> | undefined;
  let everOpen = false;
  let sse: EventSource | null = null;
  const publish = () => (streaming.value = [...replies].map(([id, text]) => ({ id, text })));

  function onFrame(f: LiveFrame) {
    if (f.t === "erased") {
      // Erased (by its visitor, the owner or the retention): what was shown goes, and no reconnect follows.
      closed = true;
      replies.clear();
      state.value = emptySession();
      streaming.value = [];
      erased.value = f.by;
      ws?.close(1000, "erased");
      sse?.close();
    } else if (f.t === "e") {
      if (f.seq <= seq) return;
      seq = f.seq;
      state.value = reduceSession(state.value, f.event);
      const m = f.event.type === "message.appended" ? f.event.data.message : null;
      if (m && replies.delete(m.id)) publish();
    } else if (f.t === "r") {
      const had = replies.get(f.id) ?? "";
      if (f.o > had.length) return;
      replies.set(f.id, had.slice(0, f.o) + f.d);
      publish();
    } else if (replies.delete(f.id)) publish();
  }

  function connect() {
    const url = new URL(routePath(ROUTES.adminLiveChannel, { id: sessionId }), location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const socket = (ws = new WebSocket(url, [LIVE.protocol]));
    socket.onopen = () => {
      attempt = 0;
      everOpen = true;
      status.value = "open";
      const have = Object.fromEntries([...replies].map(([id, text]) => [id, text.length]));
      socket.send(JSON.stringify({ t: "attach", after: seq, replies: have }));
      ping = setInterval(() => socket.send(LIVE.ping), PING_MS);
    };
    socket.onmessage = (m) => {
      if (m.data !== LIVE.pong) onFrame(JSON.parse(String(m.data)) as LiveFrame);
    };
    socket.onclose = () => {
      clearInterval(ping);
      if (closed) return;
      // Never opened twice running (a proxy that blocks WebSockets): the same frames as SSE.
      if (!everOpen && attempt >= 1) return follow();
      status.value = "retrying";
      // Backoff with jitter: a worker restart does not see every console reconnect at once.
      const wait = Math.min(10_000, 500 * 2 ** attempt++) * (0.5 + Math.random() / 2);
      setTimeout(connect, wait);
    };
  }
  /** The SSE form (the cookie rides along, same origin); EventSource reconnects by itself, seq drops repeats. */
  function follow() {
    const url = `${routePath(ROUTES.adminLiveChannel, { id: sessionId })}?after=${seq}`;
    sse = new EventSource(url);
    sse.onopen = () => (status.value = "open");
    sse.onerror = () => (status.value = "retrying");
    sse.onmessage = (m) => onFrame(JSON.parse(String(m.data)) as LiveFrame);
  }

  connect();
  return {
    state,
    streaming,
    status,
    erased,
    close() {
      closed = true;
      clearInterval(ping);
      ws?.close(1000, "page left");
      sse?.close();
    },
  };
}
