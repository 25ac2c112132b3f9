import { LIVE, type AttachFrame, type ClientFrame, type LiveFrame } from "../../shared/session/live.ts";
import { routePath } from "../../shared/wire/route-path.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { SessionAuth } from "./api.ts";
import { isHttpError } from "./errors.ts";
import { request, type FetchLike } from "./http.ts";
import { bodyText, createSseDecoder } from "./sse.ts";

/**
 * Timings of the live channel. A socket quiet for PING_MS is pinged (the Durable Object answers
 * without waking, see shared/session/live.ts); no answer within DEAD_MS and it is taken for dead (a laptop
 * that slept, a NAT that forgot it) and replaced. The SSE form gets the worker's comment every 25 s,
 * so it is dead after PING_MS + DEAD_MS of silence.
 */
export const LIVE_TIMING = {
  pingMs: 25_000,
  deadMs: 10_000,
  /** Backoff: base doubled each attempt up to the cap, each wait jittered down to half. */
  baseMs: 500,
  capMs: 15_000,
  /** WebSocket attempts that never opened, while the browser says it is online, before SSE is used. */
  failsBeforeSse: 2,
  /**
   * On SSE, a reconnect this long after the fallback tries a WebSocket again (the visitor may be on
   * another network now, or the proxy that blocked them gone); one that fails goes back to SSE at once.
   */
  wsRetryMs: 5 * 60_000,
} as const;

/**
 * The wait before reconnect attempt `attempt` (0-based): exponential, capped, with jitter, so a
 * thousand pages that lost the worker at the same moment do not come back at the same moment.
 */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.min(LIVE_TIMING.capMs, LIVE_TIMING.baseMs * 2 ** attempt) * (0.5 + random() / 2);
}

/** `ws`/`sse`: attached that way; `waiting`: between attempts; `closed`: stopped, or refused for good. */
export type LiveState = "connecting" | "ws" | "sse" | "waiting" | "closed";

export interface LiveSocketOptions {
  api: string;
  fetch?: FetchLike;
  auth: () => SessionAuth;
  /** What to ask for on each (re)attach: the log after the last sequence number held, replies from their offsets. */
  attach: () => AttachFrame;
  onFrame: (frame: LiveFrame) => void;
  onState?: (state: LiveState) => void;
  /** For tests: the WebSocket class, the window and document whose events prompt a reconnect, the dice. */
  WebSocket?: typeof WebSocket;
  win?: Pick<Window, "addEventListener" | "removeEventListener"> & { navigator?: { onLine?: boolean } };
  doc?: Pick<Document, "addEventListener" | "removeEventListener" | "visibilityState">;
  random?: () => number;
}

export type LiveSocket = ReturnType<typeof openLiveSocket>;

/**
 * The session's live channel from the browser: a WebSocket (token as the `bearer.` subprotocol,
 * browsers set no headers on one), attached with what the page holds, kept alive by pings, replaced
 * with backoff and jitter when it drops, at once when the tab comes back into view or the browser
 * back online; where WebSockets never open (a proxy that blocks them), the same frames as SSE.
 */
export function openLiveSocket(o: LiveSocketOptions) {
  const WS = o.WebSocket ?? globalThis.WebSocket;
  const win = o.win ?? globalThis.window;
  const doc = o.doc ?? globalThis.document;
  let state: LiveState = "connecting";
  let mode: "ws" | "sse" = "ws";
  let attempt = 0;
  let wsFails = 0;
  /** When the channel fell back to SSE. */
  let sseSince = 0;
  let socket: WebSocket | null = null;
  let sse: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let quietTimer: ReturnType<typeof setTimeout> | undefined;
  let deadTimer: ReturnType<typeof setTimeout> | undefined;

  const online = () => win?.navigator?.onLine !== false;
  const set = (s: LiveState) => {
    if (state !== s) o.onState?.((state = s));
  };
  const path = () => routePath(ROUTES.live, { id: o.auth().sessionId });

  function clearTimers(): void {
    clearTimeout(retryTimer);
    clearTimeout(quietTimer);
    clearTimeout(deadTimer);
    deadTimer = undefined;
  }

  /** A connection that lived a while dropped (a deploy, the network): the backoff starts over. */
  function lived(since: number): void {
    if (since && Date.now() - since > LIVE_TIMING.deadMs) attempt = 0;
  }

  /** Something came in: the connection lives; the next check is a quiet period away. */
  function heard(): void {
    clearTimeout(quietTimer);
    clearTimeout(deadTimer);
    deadTimer = undefined;
    quietTimer = setTimeout(quiet, LIVE_TIMING.pingMs);
  }

  function quiet(): void {
    if (socket?.readyState === 1) socket.send(LIVE.ping);
    deadTimer = setTimeout(dead, LIVE_TIMING.deadMs);
  }

  /** No answer: drop the connection without waiting for its close (a dead one can take minutes) and go again. */
  function dead(): void {
    drop();
    connect();
  }

  function drop(): void {
    clearTimers();
    const ws = socket;
    socket = null;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onerror = ws.onclose = null;
      ws.close();
    }
    sse?.abort();
    sse = null;
  }

  function retry(): void {
    drop();
    if (state === "closed") return;
    set("waiting");
    retryTimer = setTimeout(connect, backoffMs(attempt++, o.random));
  }

  function toSse(): void {
    mode = "sse";
    sseSince = Date.now();
  }

  function connect(): void {
    if (state === "closed") return;
    clearTimers();
    set("connecting");
    if (mode === "sse" && Date.now() - sseSince >= LIVE_TIMING.wsRetryMs) {
      mode = "ws";
      wsFails = LIVE_TIMING.failsBeforeSse - 1;
    }
    if (mode === "ws" && WS) openSocket();
    else void openSse();
  }

  function frame(data: string): void {
    let f: LiveFrame;
    try {
      f = JSON.parse(data) as LiveFrame;
    } catch {
      return;
    }
    o.onFrame(f);
  }

  function openSocket(): void {
    const url = new URL(o.api + path(), globalThis.location?.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    let ws: WebSocket;
    try {
      ws = new WS(url.href, [LIVE.protocol, LIVE.tokenPrefix + o.auth().token]);
    } catch {
      toSse();
      return connect();
    }
    socket = ws;
    let openedAt = 0;
    ws.onopen = () => {
      openedAt = Date.now();
      wsFails = 0;
      ws.send(JSON.stringify(o.attach()));
      set("ws");
      heard();
    };
    ws.onmessage = (m: MessageEvent) => {
      heard();
      if (m.data !== LIVE.pong) frame(String(m.data));
    };
    ws.onclose = ws.onerror = () => {
      if (socket !== ws) return;
      lived(openedAt);
      // A socket that never opened while the browser is online: a refusal, or a proxy in the way.
      if (!openedAt && online() && ++wsFails >= LIVE_TIMING.failsBeforeSse) toSse();
      retry();
    };
  }

  async function openSse(): Promise<void> {
    const ctrl = (sse = new AbortController());
    let openedAt = 0;
    try {
      const { token } = o.auth();
      const { after, tab } = o.attach();
      const url = `${o.api}${path()}?after=${after}${tab ? `&tab=${encodeURIComponent(tab)}` : ""}`;
      const res = await request(url, { token, signal: ctrl.signal, fetch: o.fetch, timeoutMs: 10_000 });
      openedAt = Date.now();
      set("sse");
      heard();
      const decoder = createSseDecoder(frame);
      for await (const text of bodyText(res.body!, ctrl.signal)) {
        heard();
        decoder.feed(text);
      }
    } catch (e) {
      if (sse !== ctrl) return;
      // The session is gone or the token no longer valid: nothing to follow (the next session starts anew).
      if (isHttpError(e) && e.status < 500 && e.status !== 429) return close();
    }
    if (sse !== ctrl) return;
    lived(openedAt);
    retry();
  }

  /** Back in view or back online: a connection waiting for its backoff goes now; an open one is checked. */
  function nudge(): void {
    if (state === "waiting") {
      attempt = 0;
      connect();
    } else if (socket?.readyState === 1 && !deadTimer) quiet();
  }
  const onVisible = () => doc?.visibilityState === "visible" && nudge();

  function close(): void {
    set("closed");
    drop();
    win?.removeEventListener("online", nudge);
    doc?.removeEventListener("visibilitychange", onVisible);
  }

  win?.addEventListener("online", nudge);
  doc?.addEventListener("visibilitychange", onVisible);
  connect();

  return {
    state: () => state,
    /** Sends a frame when a socket is open; false otherwise (the caller uses the HTTP route instead). */
    send(f: ClientFrame): boolean {
      if (socket?.readyState !== 1) return false;
      socket.send(JSON.stringify(f));
      return true;
    },
    close,
  };
}
