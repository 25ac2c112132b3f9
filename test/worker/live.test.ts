import { describe, expect, inject, it } from "vitest";
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import type { LiveFrame } from "../../shared/session/live.ts";
import { auth, call, openSession, readSse } from "../helpers/worker/client.ts";
import { collect, openSocket } from "../helpers/worker/live-socket.ts";
import { GENERIC_REPLY } from "../helpers/fake-upstream.ts";
import { providerSite } from "../helpers/worker/sites.ts";
import { sessionRoom } from "../../worker/objects.ts";

/** A site whose provider answers over a real socket, one chunk every 50 ms: long enough to leave and come back. */
const site = providerSite(inject("slowUpstreamUrl"));
const open = async () => openSession("derm-consult", {}, { siteKey: await site });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startReply(token: string, text: string, replyId: string, tab?: string) {
  const messages = [{ id: `${replyId}-q`, role: "user", content: text }];
  const json = { stream: true, messages, parley: { replyId, ...(tab ? { tab } : {}) } };
  return call("/v1/chat/completions", { method: "POST", json, headers: auth(token) });
}

/** The reply's text from `r` frames, checking each starts where the last ended (nothing lost or doubled). */
function joinText(frames: LiveFrame[], id: string, from = 0): string {
  let text = "";
  for (const f of frames) {
    if (f.t !== "r" || f.id !== id) continue;
    expect(f.o).toBe(from + text.length);
    text += f.d;
  }
  return text;
}

/** An SSE channel's frames, read until one matches (the channel itself never ends); then it is closed. */
function sseFrames(res: Response) {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  const frames: LiveFrame[] = [];
  let buf = "";
  const until = async (pred: (f: LiveFrame) => boolean, ms = 8000) => {
    const end = Date.now() + ms;
    while (!frames.some(pred)) {
      if (Date.now() > end) throw new Error(`no such frame in ${JSON.stringify(frames).slice(0, 400)}`);
      const next = await reader.read();
      if (next.done) break;
      buf += dec.decode(next.value, { stream: true });
      const blocks = buf.split("\n\n");
      buf = blocks.pop()!;
      for (const b of blocks) if (b.startsWith("data: ")) frames.push(JSON.parse(b.slice(6)) as LiveFrame);
    }
    await reader.cancel();
    return frames;
  };
  return { until };
}

const contentOf = (sse: string) =>
  sse
    .split("\n\n")
    .filter((b) => b.startsWith("data: {"))
    .map((b) => JSON.parse(b.slice(6)).choices?.[0]?.delta?.content ?? "")
    .join("");

describe("the live channel (WebSocket, hibernation API)", () => {
  it("replays the log after a sequence number, then streams a reply live to a second client", async () => {
    const s = await open();
    const res = await openSocket(s.sessionId, s.token);
    expect(res.status).toBe(101);
    expect(res.headers.get("sec-websocket-protocol")).toBe("parley.v1");
    const ws = res.webSocket!;
    const { frames, until } = collect(ws);
    ws.send(JSON.stringify({ t: "attach", after: 0 }));
    const opened = await until((f) => f.t === "e" && f.event.type === "session.opened");
    expect(opened).toMatchObject({ seq: 1 });

    const { res: chat } = await startReply(s.token, "live: two tabs", "l1");
    const body = await chat.text();
    await until((f) => f.t === "end" && f.id === "l1");
    // The second client saw the same bytes the first client's response carried, in order.
    expect(joinText(frames, "l1")).toBe(body);
    expect(contentOf(body)).toBe(GENERIC_REPLY);
    expect(frames.find((f) => f.t === "end")).toEqual({ t: "end", id: "l1", status: "complete" });
    // The visitor's message and the stored reply came as log entries, in sequence.
    const seqs = frames.flatMap((f) => (f.t === "e" ? [f.seq] : []));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    await until((f) => f.t === "e" && f.event.id === "msg:l1");

    // A client that has everything up to the last entry gets nothing old.
    const again = (await openSocket(s.sessionId, s.token)).webSocket!;
    const second = collect(again);
    again.send(JSON.stringify({ t: "attach", after: seqs.at(-1) }));
    await sleep(100);
    expect(second.frames.every((f) => f.t !== "e" || f.seq > seqs.at(-1)!)).toBe(true);
    ws.close();
    again.close();
  }, 15_000);

  it("a client reattaching mid-reply at offset n gets exactly the rest: nothing lost, nothing doubled", async () => {
    const s = await open();
    const { res: chat } = await startReply(s.token, "live: reattach", "l2");
    const reader = chat.body!.getReader();
    const dec = new TextDecoder();
    let had = "";
    while (had.length < 300) had += dec.decode((await reader.read()).value, { stream: true });
    await reader.cancel(); // the page went away
    const ws = (await openSocket(s.sessionId, s.token)).webSocket!;
    const { frames, until } = collect(ws);
    ws.send(JSON.stringify({ t: "attach", after: 0, replies: { l2: had.length } }));
    await until((f) => f.t === "end" && f.id === "l2");
    const rest = joinText(frames, "l2", had.length);
    expect(contentOf(had + rest)).toBe(GENERIC_REPLY);
    expect((had + rest).endsWith("data: [DONE]\n\n")).toBe(true);
    ws.close();
  }, 15_000);

  it("Stop over the socket ends the provider's request; the end frame says interrupted", async () => {
    const s = await open();
    const { res: chat } = await startReply(s.token, "live: stop over socket", "l3");
    const ws = (await openSocket(s.sessionId, s.token)).webSocket!;
    const { until } = collect(ws);
    ws.send(JSON.stringify({ t: "attach", after: 0 }));
    await until((f) => f.t === "r" && f.id === "l3");
    ws.send(JSON.stringify({ t: "stop", id: "l3" }));
    expect(await until((f) => f.t === "end")).toEqual({ t: "end", id: "l3", status: "interrupted" });
    await chat.body?.cancel().catch(() => {});
    const st = await sessionRoom(env, s.sessionId).getState();
    expect(st.messages.find((m) => m.id === "l3")?.status).toBe("interrupted");
    ws.close();
  }, 15_000);

  it("the page that streams a reply gets no copy of its text on its socket; another page gets all of it", async () => {
    const s = await open();
    const own = (await openSocket(s.sessionId, s.token)).webSocket!;
    const mine = collect(own);
    own.send(JSON.stringify({ t: "attach", after: 0, tab: "tab-a" }));
    await mine.until((f) => f.t === "e");
    const { res: chat } = await startReply(s.token, "live: own frames", "l5", "tab-a");
    const reader = chat.body!.getReader();
    const dec = new TextDecoder();
    let had = "";
    while (had.length < 300) had += dec.decode((await reader.read()).value, { stream: true });
    // Another tab opens mid-reply: what came before it (never decoded for the first page) and the rest.
    const other = (await openSocket(s.sessionId, s.token)).webSocket!;
    const theirs = collect(other);
    other.send(JSON.stringify({ t: "attach", after: 0, tab: "tab-b" }));
    await theirs.until((f) => f.t === "r" && f.id === "l5");
    // The first page's socket drops and comes back mid-reply: still no copy of its own reply.
    own.close();
    const again = (await openSocket(s.sessionId, s.token)).webSocket!;
    const back = collect(again);
    again.send(JSON.stringify({ t: "attach", after: 0, tab: "tab-a" }));
    // Its chat response breaks: it reattaches from its offset (the SSE form) and gets exactly the rest.
    await reader.cancel();
    const { res } = await call(`/v1/sessions/${s.sessionId}/live?reply=l5&from=${had.length}`, {
      headers: auth(s.token),
    });
    const rest = joinText(
      (await readSse(res)).map((d) => JSON.parse(d) as LiveFrame),
      "l5",
      had.length,
    );
    expect(contentOf(had + rest)).toBe(GENERIC_REPLY);
    await theirs.until((f) => f.t === "end" && f.id === "l5");
    expect(joinText(theirs.frames, "l5")).toBe(had + rest);
    // The first page hears that the reply ended and gets the stored message, but none of its text.
    await back.until((f) => f.t === "e" && f.event.id === "msg:l5");
    expect(back.frames).toContainEqual({ t: "end", id: "l5", status: "complete" });
    expect([...mine.frames, ...back.frames].filter((f) => f.t === "r")).toEqual([]);
    other.close();
    again.close();
  }, 15_000);

  it("on the SSE form of the channel too, the page that streams a reply gets no copy of its text", async () => {
    const s = await open();
    const follow = async (tab: string) => {
      const { res } = await call(`/v1/sessions/${s.sessionId}/live?after=0&tab=${tab}`, { headers: auth(s.token) });
      return sseFrames(res);
    };
    const [mine, theirs] = [await follow("tab-a"), await follow("tab-b")];
    const { res: chat } = await startReply(s.token, "live: own frames over sse", "l6", "tab-a");
    const had = await chat.text();
    const ended = (f: LiveFrame) => f.t === "end" && f.id === "l6";
    const [a, b] = [await mine.until(ended), await theirs.until(ended)];
    // The page hears that its reply ended, and gets the stored message, but none of its text.
    expect(a.filter((f) => f.t === "r")).toEqual([]);
    expect(a.some((f) => f.t === "e" && f.event.id === "msg:l6")).toBe(true);
    expect(joinText(b, "l6")).toBe(had);
    expect(contentOf(had)).toBe(GENERIC_REPLY);
  }, 15_000);

  it("answers pings without waking the object (auto-response) and keeps sockets across hibernation", async () => {
    const s = await open();
    const ws = (await openSocket(s.sessionId, s.token)).webSocket!;
    const { until } = collect(ws);
    ws.send('{"t":"ping"}');
    await until((f) => (f as { t: string }).t === "pong");
    await runInDurableObject(sessionRoom(env, s.sessionId), (_obj, state) => {
      expect(state.getWebSockets()).toHaveLength(1);
      expect(state.getWebSocketAutoResponse()?.response).toBe('{"t":"pong"}');
    });
    ws.close();
  });

  it("refuses a socket without a token, with another's token, from elsewhere, or without the protocol", async () => {
    const a = await open();
    const b = await open();
    const noToken = await call(`/v1/sessions/${a.sessionId}/live`, {
      headers: { upgrade: "websocket", "sec-websocket-protocol": "parley.v1" },
    });
    expect(noToken.res.status).toBe(401);
    expect(((await noToken.res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    expect((await openSocket(a.sessionId, b.token)).status).toBe(403);
    expect((await openSocket(a.sessionId, a.token, { origin: "https://evil.example" })).status).toBe(403);
    const noProtocol = await call(`/v1/sessions/${a.sessionId}/live`, {
      headers: { upgrade: "websocket", "sec-websocket-protocol": `bearer.${a.token}` },
    });
    expect(noProtocol.res.status).toBe(400);
    const badQuery = await call(`/v1/sessions/${a.sessionId}/live?after=-1`, { headers: auth(a.token) });
    expect(badQuery.res.status).toBe(400);
  });
});

describe("the live channel's SSE fallback", () => {
  it("follows one reply from an offset and ends with it; a reply it does not hold is `gone`", async () => {
    const s = await open();
    const { res: chat } = await startReply(s.token, "live: sse", "l4");
    const reader = chat.body!.getReader();
    const had = new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const { res } = await call(`/v1/sessions/${s.sessionId}/live?reply=l4&from=${had.length}`, {
      headers: auth(s.token),
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const frames = (await readSse(res)).map((d) => JSON.parse(d) as LiveFrame);
    expect(frames.at(-1)).toEqual({ t: "end", id: "l4", status: "complete" });
    expect(contentOf(had + joinText(frames, "l4", had.length))).toBe(GENERIC_REPLY);
    const gone = await call(`/v1/sessions/${s.sessionId}/live?reply=nope&from=0`, { headers: auth(s.token) });
    expect((await readSse(gone.res)).map((d) => JSON.parse(d))).toEqual([{ t: "end", id: "nope", status: "gone" }]);
  }, 15_000);

  it("counts each reattachment against the session's rate (checked by the object as it attaches)", async () => {
    const s = await open();
    const follow = () => call(`/v1/sessions/${s.sessionId}/live?reply=nope&from=0`, { headers: auth(s.token) });
    // The demo site allows 60 requests a minute per session; the session's open was not one of them.
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const { res } = await follow();
      statuses.push(res.status);
      await res.body?.cancel();
    }
    expect(statuses.slice(0, 60).every((st) => st === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
    const { res } = await follow();
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
  }, 30_000);
});
