// Types only: importing @preact/signals here made the bundler split Preact out of the core into a chunk of its own.
import type { Signal } from "@preact/signals";
import type { LiveFrame } from "../../shared/session/live.ts";
import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import { asChatChunk, emptyReply, foldChunk, type FoldedReply } from "../../shared/chat/reply-fold.ts";
import { routePath } from "../../shared/wire/route-path.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { StepView } from "../agent/loop.ts";
import type { FetchLike } from "../transport/http.ts";
import { request } from "../transport/http.ts";
import { openLiveSocket, type LiveSocketOptions } from "../transport/live-socket.ts";
import { createSseDecoder } from "../transport/sse.ts";

import type { SessionStore } from "./session-store.ts";
import type { ChatStatus } from "./live-slice.ts";
import type { SessionEvent, StoredMessage } from "../../shared/session/session-events.ts";

/**
 * The visitor's message to the person from the site's staff who handles the chat: shipped with the
 * live channel, which a page whose conversation a person took over has loaded (it heard them there).
 */
export { sendToPerson } from "./takeover-actions.ts";

export interface LiveSyncOptions {
  api: string;
  fetch?: FetchLike;
  session: SessionStore;
  /** The turn runner's view of the reply streaming now, and the panel's status: a reply of another tab shows there. */
  live: Signal<StepView | null>;
  status: Signal<ChatStatus>;
  /**
   * A reply or a staff message that came in from elsewhere (another tab, a person from the site's
   * staff): the host page hears of it, and the launcher counts it while the panel is closed.
   */
  replied?: (message: StoredMessage) => void;
  /** The conversation was erased (from another tab, or by the site): the panel starts afresh. */
  erased?: () => void;
  /** For tests: the socket's WebSocket class, window, document and dice. */
  socket?: Pick<LiveSocketOptions, "WebSocket" | "win" | "doc" | "random" | "onState">;
}

/** A reply streaming elsewhere (another tab of the session): its SSE text as far as it came, folded. */
interface Remote {
  offset: number;
  reply: FoldedReply;
  feed: (text: string) => void;
}

export type LiveSync = NonNullable<ReturnType<typeof startLiveSync>>;

/**
 * Keeps the page in step with the session's log once its first reply is done (or its stored
 * session restored): every event another tab, the worker or a person added comes in on the live
 * channel and is folded with the shared reducer, and a reply streaming from another tab shows as it
 * streams, with Stop. The log is the one source of truth: an event the page folded itself is not
 * folded twice (a message event is, to take the log's copy), and a reply is settled by its stored
 * message or its end frame, so no page stays "streaming" because it missed an end.
 */
export function startLiveSync(o: LiveSyncOptions) {
  const { session } = o;
  if (!(o.socket?.WebSocket ?? globalThis.WebSocket)) return null;
  const remote = new Map<string, Remote>();
  const ended = new Set<string>();
  /** The remote reply this page shows in the runner's place. */
  let shown: string | null = null;

  const ownTurn = () => !shown && (o.status.value === "sending" || o.status.value === "streaming");
  const stored = (id: string) => session.state.value.messages.some((m) => m.id === id && m.role === "assistant");

  function onEvent(seq: number, event: SessionEvent): void {
    const { log } = session;
    if (seq <= log.seq) return;
    log.seq = seq;
    // session.apply folds an event the page already folded itself only if it is a message (its newer copy).
    const m = event.type === EVENT_TYPES.messageAppended ? event.data.message : null;
    // Not this page's own reply: its turn tells the host when it ends (the log's copy may come first).
    const isNew = m?.role === "assistant" && !!m.content && !stored(m.id) && !ownTurn();
    session.apply([event]);
    if (!m) return;
    settle(m.id);
    if (isNew) o.replied?.(m);
  }

  function settle(id: string): void {
    ended.add(id);
    remote.delete(id);
    if (shown !== id) return;
    shown = null;
    o.live.value = null;
    if (o.status.value === "streaming") o.status.value = "idle";
  }

  function text(id: string, at: number, d: string): void {
    let r = remote.get(id);
    if (!r) {
      // This page's own reply (its turn reads the chat response), or one already stored.
      if (ended.has(id) || ownTurn() || stored(id)) return;
      const reply = emptyReply();
      const decoder = createSseDecoder((data) => {
        const chunk = data === "[DONE]" ? null : asChatChunk(safeJson(data));
        if (chunk) foldChunk(reply, chunk);
      });
      remote.set(id, (r = { offset: 0, reply, feed: decoder.feed }));
    }
    // A frame past what this page has would leave a hole: never on one ordered connection (the
    // attach names the offset); if it came, the stored message settles the reply.
    if (at > r.offset) return;
    const d2 = d.slice(r.offset - at);
    r.offset += d2.length;
    r.feed(d2);
    const { content: answer, reasoning } = r.reply;
    if (!answer && !reasoning) return;
    shown = id;
    o.live.value = { id, answer, reasoning, toolCalls: [], results: [] };
    o.status.value = "streaming";
  }

  // The session this channel follows: an erasure heard after the page moved on (its own) is not its concern.
  const sid = session.auth().sessionId;
  function onFrame(f: LiveFrame): void {
    if (f.t === "e") onEvent(f.seq, f.event);
    else if (f.t === "end") settle(f.id);
    else if (f.t === "r") text(f.id, f.o, f.d);
    else if (f.t === "erased" && session.auth().sessionId === sid) o.erased?.();
  }

  const socket = openLiveSocket({
    api: o.api,
    fetch: o.fetch,
    auth: session.auth,
    attach: () => ({
      t: "attach",
      after: session.log.seq,
      tab: session.tab,
      replies: Object.fromEntries([...remote].map(([id, r]) => [id, r.offset])),
    }),
    onFrame,
    ...o.socket,
  });

  return {
    /**
     * Stop pressed while a reply of another tab shows: the worker ends the provider's request (on the
     * socket, else the HTTP route); the stored, interrupted message then settles it here and there.
     */
    stop(): void {
      const id = shown;
      if (!id || socket.send({ t: "stop", id })) return;
      const { sessionId, token } = session.auth();
      const url = o.api + routePath(ROUTES.replyStop, { id: sessionId, replyId: id });
      request(url, { method: "POST", token, fetch: o.fetch }).catch(() => {});
    },
    close(): void {
      socket.close();
      if (shown) settle(shown);
    },
  };
}

function safeJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}
