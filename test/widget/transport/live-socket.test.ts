import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LiveFrame } from "../../../shared/session/live.ts";
import { backoffMs, LIVE_TIMING, openLiveSocket, type LiveState } from "../../../widget/transport/live-socket.ts";
import { fakeBrowser, fakeWebSockets } from "../../helpers/widget/fake-websocket.ts";

const API = "http://parley.test";

/** An SSE response the test writes frames into, and the requests made for it. */
function fakeSse(status = 200) {
  const requests: Array<{ url: string; auth: string | null }> = [];
  let push: (s: string) => void = () => {};
  let end: () => void = () => {};
  const fetch = async (url: string, init?: RequestInit) => {
    requests.push({ url, auth: new Headers(init?.headers).get("authorization") });
    if (status !== 200)
      return new Response(JSON.stringify({ error: { code: "unauthorized", message: "no" } }), { status });
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        push = (s) => c.enqueue(new TextEncoder().encode(s));
        end = () => c.close();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };
  return { fetch, requests, push: (f: LiveFrame) => push(`data: ${JSON.stringify(f)}\n\n`), end: () => end() };
}

function setup(opts: { sse?: ReturnType<typeof fakeSse>; after?: () => number } = {}) {
  const ws = fakeWebSockets();
  const browser = fakeBrowser();
  const frames: LiveFrame[] = [];
  const states: LiveState[] = [];
  let after = 0;
  const socket = openLiveSocket({
    api: API,
    fetch: opts.sse?.fetch,
    auth: () => ({ sessionId: "s1", token: "t1" }),
    attach: () => ({ t: "attach", after: opts.after?.() ?? after, replies: { r1: 5 } }),
    onFrame: (f) => frames.push(f),
    onState: (s) => states.push(s),
    WebSocket: ws.WebSocket,
    win: browser.win,
    doc: browser.doc,
    random: () => 0,
  });
  return { ws, browser, frames, states, socket, setAfter: (n: number) => void (after = n) };
}

beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] }));
afterEach(() => vi.useRealTimers());

describe("the live socket", () => {
  it("opens the session's channel with the token as a subprotocol and attaches with what the page holds", () => {
    const { ws, frames, states } = setup();
    const s = ws.last();
    expect(s.url).toBe("ws://parley.test/v1/sessions/s1/live");
    expect(s.protocols).toEqual(["parley.v1", "bearer.t1"]);
    expect(s.sent).toEqual([]);
    s.open();
    expect(s.frames()).toEqual([{ t: "attach", after: 0, replies: { r1: 5 } }]);
    s.message({ t: "r", id: "r1", o: 5, d: "abc" });
    s.message('{"t":"pong"}');
    expect(frames).toEqual([{ t: "r", id: "r1", o: 5, d: "abc" }]);
    expect(states).toEqual(["ws"]);
  });

  it("pings a quiet socket and replaces one that does not answer, attaching from where the page is", async () => {
    const { ws, setAfter } = setup();
    ws.last().open();
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.pingMs - 1);
    expect(ws.last().sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(ws.last().sent.at(-1)).toBe('{"t":"ping"}');
    // Answered: the same socket lives on.
    ws.last().message('{"t":"pong"}');
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.deadMs * 2);
    expect(ws.sockets).toHaveLength(1);
    // Not answered: dead after deadMs, replaced at once (no backoff: the network may be fine).
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.pingMs);
    setAfter(7);
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.deadMs);
    expect(ws.sockets).toHaveLength(2);
    expect(ws.sockets[0].closed).toBe(true);
    ws.last().open();
    expect(ws.last().frames()).toEqual([{ t: "attach", after: 7, replies: { r1: 5 } }]);
  });

  it("reconnects after a drop with exponential backoff, and starts over once a socket has lived", async () => {
    const { ws, states } = setup();
    ws.last().open();
    // random() = 0: each wait is half its cap, 250, 500, 1000 ms...
    for (const wait of [250, 500, 1000, 2000]) {
      const n = ws.sockets.length;
      ws.last().fail();
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(ws.sockets).toHaveLength(n);
      await vi.advanceTimersByTimeAsync(1);
      expect(ws.sockets).toHaveLength(n + 1);
      ws.last().open();
    }
    // This one lives longer than a dead check: the next drop waits the shortest time again.
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.deadMs + 1);
    ws.last().message('{"t":"pong"}');
    const n = ws.sockets.length;
    ws.last().fail();
    await vi.advanceTimersByTimeAsync(250);
    expect(ws.sockets).toHaveLength(n + 1);
    expect(states.filter((s) => s === "waiting")).toHaveLength(5);
  });

  it("jitters each wait between half and all of it, capped", () => {
    expect(backoffMs(0, () => 0)).toBe(250);
    expect(backoffMs(0, () => 0.999999)).toBeCloseTo(500, 0);
    expect(backoffMs(3, () => 0.5)).toBe(3000);
    expect(backoffMs(30, () => 1)).toBe(LIVE_TIMING.capMs);
    const waits = Array.from({ length: 200 }, () => backoffMs(4));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(4000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(8000);
    expect(new Set(waits).size).toBeGreaterThan(150);
  });

  it("goes at once when the browser is back online or the tab back in view", async () => {
    const { ws, browser } = setup();
    ws.last().open();
    for (let i = 0; i < 5; i++) {
      ws.last().fail();
      await vi.advanceTimersByTimeAsync(LIVE_TIMING.capMs);
      ws.last().open();
    }
    browser.setOnline(false);
    ws.last().fail();
    const n = ws.sockets.length;
    browser.setOnline(true);
    expect(ws.sockets).toHaveLength(n + 1);
    ws.last().open();
    ws.last().fail();
    browser.setVisible(true);
    expect(ws.sockets).toHaveLength(n + 2);
    // In view with an open socket: it is checked now, not a quiet period later.
    ws.last().open();
    browser.setVisible(false);
    browser.setVisible(true);
    expect(ws.last().sent.at(-1)).toBe('{"t":"ping"}');
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.deadMs);
    expect(ws.sockets).toHaveLength(n + 3);
  });

  it("falls back to SSE where WebSockets never open, with the same frames, and reconnects it too", async () => {
    const sse = fakeSse();
    const { ws, frames, states, setAfter } = setup({ sse });
    ws.last().fail();
    await vi.advanceTimersByTimeAsync(250);
    setAfter(3);
    ws.last().fail();
    expect(ws.sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(500);
    expect(ws.sockets).toHaveLength(2);
    expect(sse.requests).toEqual([{ url: `${API}/v1/sessions/s1/live?after=3`, auth: "Bearer t1" }]);
    sse.push({ t: "r", id: "r1", o: 0, d: "hi" });
    await vi.advanceTimersByTimeAsync(0);
    expect(frames).toEqual([{ t: "r", id: "r1", o: 0, d: "hi" }]);
    expect(states.at(-1)).toBe("sse");
    // The worker ended the stream: again, on SSE.
    sse.end();
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.capMs);
    expect(sse.requests).toHaveLength(2);
    // Silent past the worker's keep-alive and the dead check: replaced.
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.pingMs + LIVE_TIMING.deadMs);
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.capMs);
    expect(sse.requests.length).toBeGreaterThanOrEqual(3);
    expect(ws.sockets).toHaveLength(2);
  });

  it("on SSE, tries a WebSocket again at a reconnect some minutes later; a failure goes back to SSE", async () => {
    const sse = fakeSse();
    const { ws, states } = setup({ sse });
    ws.last().fail();
    await vi.advanceTimersByTimeAsync(250);
    ws.last().fail();
    await vi.advanceTimersByTimeAsync(500);
    expect(states.at(-1)).toBe("sse");
    // Reconnects before wsRetryMs stay on SSE (a silent one is replaced, a closed one reopened).
    sse.end();
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.wsRetryMs - LIVE_TIMING.capMs);
    expect(ws.sockets).toHaveLength(2);
    // The first reconnect after it tries a WebSocket; it fails, and SSE comes back without a second try.
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.pingMs + LIVE_TIMING.deadMs + LIVE_TIMING.capMs);
    expect(ws.sockets).toHaveLength(3);
    const before = sse.requests.length;
    ws.last().fail();
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.capMs);
    expect(ws.sockets).toHaveLength(3);
    expect(sse.requests.length).toBe(before + 1);
    expect(states.at(-1)).toBe("sse");
    // Another while: a WebSocket that opens is kept, and the channel is back on it.
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.wsRetryMs + LIVE_TIMING.pingMs + LIVE_TIMING.deadMs);
    expect(ws.sockets).toHaveLength(4);
    ws.last().open();
    expect(states.at(-1)).toBe("ws");
  });

  it("does not count failures while offline towards the fallback, and stops for good when refused", async () => {
    const sse = fakeSse(401);
    const { ws, browser, states } = setup({ sse });
    browser.setOnline(false);
    for (let i = 0; i < 4; i++) {
      ws.last().fail();
      await vi.advanceTimersByTimeAsync(LIVE_TIMING.capMs);
    }
    expect(sse.requests).toHaveLength(0);
    browser.setOnline(true);
    ws.last().fail();
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.capMs);
    ws.last().fail();
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.capMs);
    expect(sse.requests).toHaveLength(1);
    expect(states.at(-1)).toBe("closed");
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.capMs * 4);
    expect(sse.requests).toHaveLength(1);
  });

  it("close() ends the socket and every timer", async () => {
    const { ws, socket, browser } = setup();
    ws.last().open();
    expect(socket.send({ t: "stop", id: "r1" })).toBe(true);
    socket.close();
    expect(ws.last().closed).toBe(true);
    expect(socket.send({ t: "stop", id: "r1" })).toBe(false);
    browser.setOnline(true);
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.pingMs * 4);
    expect(ws.sockets).toHaveLength(1);
  });
});
