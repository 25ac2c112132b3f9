import type { LiveFrame } from "../../../shared/session/live.ts";
import { call } from "./client.ts";

/** The visitor's live channel as a WebSocket upgrade (the token rides as the `bearer.` subprotocol). */
export async function openSocket(sessionId: string, token: string, headers: Record<string, string> = {}) {
  const { res } = await call(`/v1/sessions/${sessionId}/live`, {
    headers: { upgrade: "websocket", "sec-websocket-protocol": `parley.v1, bearer.${token}`, ...headers },
  });
  return res;
}

/** A socket's frames as they come, a wait for the one that matches, and how the worker closed it. */
export function collect(ws: WebSocket) {
  const frames: LiveFrame[] = [];
  const waiters: Array<() => void> = [];
  let closed: { code: number; reason: string } | null = null;
  ws.addEventListener("message", (m) => {
    frames.push(JSON.parse(m.data as string) as LiveFrame);
    waiters.splice(0).forEach((w) => w());
  });
  ws.addEventListener("close", (e) => {
    closed = { code: e.code, reason: e.reason };
    waiters.splice(0).forEach((w) => w());
  });
  ws.accept();
  const wait = () =>
    new Promise<void>((r) => {
      waiters.push(r);
      setTimeout(r, 50);
    });
  const until = async (pred: (f: LiveFrame) => boolean, ms = 8000) => {
    const end = Date.now() + ms;
    while (!frames.some(pred)) {
      if (Date.now() > end) throw new Error(`no such frame in ${JSON.stringify(frames).slice(0, 400)}`);
      await wait();
    }
    return frames.find(pred)!;
  };
  /** The close the worker sent, or null when the socket is still open after `ms`. */
  const closing = async (ms = 3000) => {
    const end = Date.now() + ms;
    while (!closed && Date.now() < end) await wait();
    return closed as { code: number; reason: string } | null;
  };
  return { frames, until, closing };
}
