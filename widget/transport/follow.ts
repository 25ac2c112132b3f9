import type { LiveFrame } from "../../shared/session/live.ts";
import { routePath } from "../../shared/wire/route-path.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { ApiContext, SessionAuth } from "./api.ts";
import { isAbortError, isHttpError, isProtocolError, NetworkError, ProtocolError } from "./errors.ts";
import { request } from "./http.ts";
import { bodyText, createSseDecoder } from "./sse.ts";

export interface FollowOptions extends ApiContext {
  auth: () => SessionAuth;
  replyId: string;
  /** Characters of the reply's SSE text the caller already has. */
  from: number;
  signal?: AbortSignal;
}

/**
 * A streamed reply's SSE text: the chat response's (`body`), and if it breaks, or when there is none
 * (a reload), the rest from the live channel, from the offset reached: no character lost or doubled.
 */
export async function* replyText(o: Omit<FollowOptions, "from"> & { body: ReadableStream<Uint8Array> | null }) {
  let from = 0;
  try {
    if (o.body)
      for await (const t of bodyText(o.body, o.signal)) {
        from += t.length;
        yield t;
      }
  } catch (e) {
    if (isAbortError(e)) throw e;
  }
  // The reader stops at [DONE]: getting here, the response ended (or broke) before the reply did. A
  // connection that closes can look like a clean end, so the live channel says how the reply ended.
  yield* followReply({ ...o, from });
}

/** Stops a streamed reply at the worker (the provider's request ends), wherever it is being read. */
export function stopReply(o: ApiContext & { auth: () => SessionAuth }, replyId: string): void {
  const { sessionId, token } = o.auth();
  const path = routePath(ROUTES.replyStop, { id: sessionId, replyId });
  request(o.api + path, { method: "POST", token, fetch: o.fetch }).catch(() => {});
}

/** Reconnects stop after this long without a byte: the reply has long ended, the log has it. */
const GIVE_UP_MS = 5 * 60_000;

/**
 * Backoff with jitter (a storm of reconnecting clients spreads out), cut short when the browser
 * says it is back online.
 */
function backoff(attempt: number, signal?: AbortSignal): Promise<void> {
  const ms = Math.min(8_000, 250 * 2 ** attempt) * (0.5 + Math.random() / 2);
  // The window's `online` event (typed by hand: the worker's type check also reads this file).
  const win = globalThis as unknown as Pick<EventTarget, "addEventListener" | "removeEventListener">;
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      win.removeEventListener("online", done);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    win.addEventListener("online", done);
    signal?.addEventListener("abort", done);
  });
}

/**
 * The rest of a streamed reply after a break (lost network, a reload, the page moved on), through
 * the live channel's SSE form: its text from the offset the caller has, then live, until the reply
 * ends. Each frame names its offset, so text the caller already has is skipped and a gap is an
 * error rather than a silently shorter reply. Loaded only when a reply must be reattached.
 */
export async function* followReply(o: FollowOptions): AsyncGenerator<string> {
  let offset = o.from;
  let lastByte = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      const { sessionId, token } = o.auth();
      const query = `?reply=${encodeURIComponent(o.replyId)}&from=${offset}`;
      const url = o.api + routePath(ROUTES.live, { id: sessionId }) + query;
      const res = await request(url, { token, signal: o.signal, fetch: o.fetch, timeoutMs: 10_000 });
      const frames: LiveFrame[] = [];
      const sse = createSseDecoder((d) => frames.push(JSON.parse(d) as LiveFrame));
      for await (const text of bodyText(res.body!, o.signal)) {
        sse.feed(text);
        for (const f of frames.splice(0)) {
          // The conversation was erased (the reply stopped with it): nothing more will come.
          if (f.t === "erased") return;
          if (f.t === "e" || f.id !== o.replyId) continue;
          // Ended (or ended long ago, "gone"): the caller has what there is, and the log has the rest.
          if (f.t === "end") return;
          if (f.t !== "r") continue;
          if (f.o > offset) throw new ProtocolError("bad_response", `Reply text from ${f.o}, expected ${offset}`);
          const d = f.d.slice(offset - f.o);
          offset += d.length;
          lastByte = Date.now();
          attempt = 0;
          if (d) yield d;
        }
      }
    } catch (e) {
      // Only the network is worth another try: an abort, a refusal or a broken protocol is final.
      if (isAbortError(e) || isProtocolError(e) || (isHttpError(e) && e.status < 500 && e.status !== 429)) throw e;
    }
    if (o.signal?.aborted) return;
    if (Date.now() - lastByte > GIVE_UP_MS) throw new NetworkError(`Reply ${o.replyId} could not be reattached`);
    await backoff(attempt, o.signal);
  }
}
