import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { DEMO_ADMIN_KEY } from "../../worker/demo/index.ts";
import { LIVE_LIMITS } from "../../worker/session/live-limits.ts";
import { auth, call, openSession, ORIGIN, SITE_KEY } from "../helpers/worker/client.ts";
import { collect, openSocket } from "../helpers/worker/live-socket.ts";
import { sessionRoom } from "../../worker/objects.ts";

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the live channel's limits, per session", () => {
  it("answers one attach per socket: a second closes it (1008) instead of sending the whole log again", async () => {
    const s = await openSession();
    const logged = (await sessionRoom(env, s.sessionId).getEvents(0)).length;
    const ws = (await openSocket(s.sessionId, s.token)).webSocket!;
    const { frames, closing } = collect(ws);
    for (let i = 0; i < 150; i++) ws.send(JSON.stringify({ t: "attach", after: 0 }));
    expect(await closing()).toEqual({ code: 1008, reason: "one attach per socket" });
    // The first attach's catch-up, once: the log's entries, not 150 copies of them.
    expect(frames).toHaveLength(logged);
    expect(frames.every((f) => f.t === "e")).toBe(true);
  });

  it("closes a socket whose attach names more replies than a page streams (1003), sending nothing", async () => {
    const s = await openSession();
    const ws = (await openSocket(s.sessionId, s.token)).webSocket!;
    const { frames, closing } = collect(ws);
    const replies = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`r${i}`, 0]));
    ws.send(JSON.stringify({ t: "attach", after: 0, replies }));
    expect((await closing())?.code).toBe(1003);
    expect(frames).toEqual([]);
  });

  it("counts stop frames in the session's request window and closes the socket past it (1008)", async () => {
    const s = await openSession();
    const ws = (await openSocket(s.sessionId, s.token)).webSocket!;
    const { closing } = collect(ws);
    ws.send(JSON.stringify({ t: "attach", after: 0 }));
    // The demo site allows 60 requests a minute per session; the upgrade was one of them.
    for (let i = 0; i < 70; i++) ws.send(JSON.stringify({ t: "stop", id: `nope-${i}` }));
    expect(await closing()).toEqual({ code: 1008, reason: "too many frames for this session" });
    // The window is the session's: its next request is refused too.
    const { res } = await call(`/v1/sessions/${s.sessionId}/live?reply=nope`, { headers: auth(s.token) });
    expect(res.status).toBe(429);
  });

  it("refuses a visitor's socket past its cap (429 JSON) until one closes; staff's sockets count apart", async () => {
    const s = await openSession();
    const open: WebSocket[] = [];
    for (let i = 0; i < LIVE_LIMITS.visitorSockets; i++) {
      const res = await openSocket(s.sessionId, s.token);
      expect(res.status).toBe(101);
      open.push(res.webSocket!);
      res.webSocket!.accept();
    }
    const refused = await openSocket(s.sessionId, s.token);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("10");
    expect(await errorOf(refused)).toEqual({
      code: "rate_limited",
      message:
        `This conversation has ${LIVE_LIMITS.visitorSockets} live connections open already; ` +
        "close a tab or wait for one to end",
    });
    // Staff can still watch the conversation.
    const staff = await call(`${ORIGIN}/v1/admin/live/${s.sessionId}/channel?site=${SITE_KEY}`, {
      headers: { upgrade: "websocket", "sec-websocket-protocol": "parley.v1", "x-parley-admin-key": DEMO_ADMIN_KEY },
    });
    expect(staff.res.status).toBe(101);
    staff.res.webSocket!.accept();
    // A tab closes: a new socket is taken once the object has seen it go.
    open.shift()!.close(1000, "tab closed");
    let again = 0;
    for (let i = 0; i < 40 && again !== 101; i++) {
      const res = await openSocket(s.sessionId, s.token);
      again = res.status;
      if (again === 101) {
        res.webSocket!.accept();
        open.push(res.webSocket!);
      } else await sleep(50);
    }
    expect(again).toBe(101);
    for (const ws of [...open, staff.res.webSocket!]) ws.close();
  });

  it("refuses a visitor's SSE stream past its cap (429 JSON), before counting it as a request", async () => {
    const s = await openSession();
    const follow = () => call(`/v1/sessions/${s.sessionId}/live?after=0`, { headers: auth(s.token) });
    const streams: Response[] = [];
    for (let i = 0; i < LIVE_LIMITS.visitorStreams; i++) {
      const { res } = await follow();
      expect(res.status).toBe(200);
      streams.push(res);
    }
    const { res } = await follow();
    expect(res.status).toBe(429);
    expect((await errorOf(res)).message).toContain(`${LIVE_LIMITS.visitorStreams} live connections open`);
    for (const r of streams) await r.body!.cancel();
  });
});
