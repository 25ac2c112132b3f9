import { signal } from "@preact/signals";
import { describe, expect, it } from "vitest";
import { contextEvent, messageEvent } from "../../shared/session/events.ts";
import { traceEvent } from "../../shared/chat/step-events.ts";
import type { StepView } from "../../widget/agent/loop.ts";
import { sendToPerson, startLiveSync } from "../../widget/state/live-sync.ts";
import { createSessionStore } from "../../widget/state/session-store.ts";
import type { ChatStatus } from "../../widget/state/live-slice.ts";
import { fakeApi, memoryStorage } from "../helpers/widget/fake-api.ts";
import { fakeBrowser, fakeWebSockets } from "../helpers/widget/fake-websocket.ts";

const API = "http://parley.test";
/** A piece of a reply's SSE text, as the chat response (and the live channel's `r` frames) carry it. */
const sse = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;
const reply = (id: string, content: string, status: "complete" | "interrupted" = "complete") =>
  messageEvent({ id, role: "assistant", content, status, at: 2 }, status === "interrupted" ? ":interrupted" : "");

async function setup() {
  const api = fakeApi();
  const session = createSessionStore({
    api: API,
    fetch: api.fetch,
    siteKey: "k",
    agentId: "a",
    locale: "en",
    storage: memoryStorage(),
  });
  await session.ensure();
  const ws = fakeWebSockets();
  const live = signal<StepView | null>(null);
  const status = signal<ChatStatus>("idle");
  const replied: string[] = [];
  const sync = startLiveSync({
    api: API,
    fetch: api.fetch,
    session,
    live,
    status,
    replied: (m) => replied.push(m.content),
    socket: { WebSocket: ws.WebSocket, ...fakeBrowser(), random: () => 0 },
  })!;
  ws.last().open();
  return { api, session, ws, live, status, sync, replied, socket: () => ws.last() };
}

describe("live sync", () => {
  it("attaches after the last event the page took from the worker, and folds each new one once", async () => {
    const { session, socket } = await setup();
    // The fake worker's new session is at version 1 (its opening event).
    expect(socket().frames()).toEqual([{ t: "attach", after: 1, replies: {}, tab: session.tab }]);
    const fromOtherTab = messageEvent({ id: "u1", role: "user", content: "from the other tab", at: 1 });
    socket().message({ t: "e", seq: 2, event: fromOtherTab });
    socket().message({ t: "e", seq: 2, event: fromOtherTab });
    expect(session.state.value.messages.map((m) => m.content)).toEqual(["from the other tab"]);
    // Events this page folded itself (its own trace step, a context edit's answer) come back from the
    // log: not folded again (the context's version would move and the next edit be refused).
    const trace = traceEvent("trace:mine", { kind: "tool", ok: true });
    const ctx = contextEvent("s1", { a: "1" }, "visitor", 1);
    session.apply([trace, ctx]);
    const version = session.state.value.contextVersion;
    socket().message({ t: "e", seq: 3, event: trace });
    socket().message({ t: "e", seq: 4, event: ctx });
    expect(session.state.value.trace).toHaveLength(1);
    expect(session.state.value.contextVersion).toBe(version);
    expect(session.log.seq).toBe(4);
    // And the other way round: the log's copy came first, then this page's own answer with the same event.
    const edit = contextEvent("s1", { a: "2" }, "visitor", 2);
    socket().message({ t: "e", seq: 5, event: edit });
    const after = session.state.value.contextVersion;
    expect(after).toBe(version + 1);
    session.apply([edit]);
    expect(session.state.value.contextVersion).toBe(after);
    // A message the page has is replaced by the log's copy (the log is the truth: here, interrupted).
    session.apply([reply("r0", "partial")]);
    socket().message({ t: "e", seq: 6, event: reply("r0", "partial and more", "interrupted") });
    expect(session.state.value.messages.at(-1)).toMatchObject({ content: "partial and more", status: "interrupted" });
  });

  it("shows another tab's reply as it streams, no doubles across a reconnect, settled by its message", async () => {
    const { session, socket, ws, live, status, replied } = await setup();
    const a = sse("Hello"),
      b = sse(" there");
    socket().message({ t: "r", id: "r1", o: 0, d: a });
    expect(live.value).toMatchObject({ id: "r1", answer: "Hello" });
    expect(status.value).toBe("streaming");
    // The socket drops; the new one attaches naming how far this page has the reply.
    socket().fail();
    await new Promise((r) => setTimeout(r, 300));
    socket().open();
    expect(socket().frames()).toEqual([{ t: "attach", after: 1, replies: { r1: a.length }, tab: session.tab }]);
    // A replay from an earlier offset (the SSE form sends a reply from its start) is cut to what is new.
    socket().message({ t: "r", id: "r1", o: 0, d: a + b });
    socket().message({ t: "r", id: "r1", o: a.length, d: b });
    expect(live.value?.answer).toBe("Hello there");
    // The reply's stored message settles it, then its end frame changes nothing.
    socket().message({ t: "e", seq: 2, event: reply("r1", "Hello there") });
    expect(live.value).toBeNull();
    expect(status.value).toBe("idle");
    socket().message({ t: "end", id: "r1", status: "complete" });
    socket().message({ t: "r", id: "r1", o: 0, d: a });
    expect(live.value).toBeNull();
    // The host page hears of it once (the launcher counts it while the panel is closed).
    expect(replied).toEqual(["Hello there"]);
    expect(session.state.value.messages.map((m) => m.content)).toEqual(["Hello there"]);
    expect(ws.sockets).toHaveLength(2);
  });

  it("never leaves the page streaming when it missed a reply's end: the end frame (or 'gone') settles it", async () => {
    const { socket, live, status } = await setup();
    socket().message({ t: "r", id: "r2", o: 0, d: sse("Half") });
    expect(status.value).toBe("streaming");
    socket().message({ t: "end", id: "r2", status: "gone" });
    expect(live.value).toBeNull();
    expect(status.value).toBe("idle");
  });

  it("leaves this page's own reply to its turn, and a reply already stored alone", async () => {
    const { session, socket, live, status } = await setup();
    status.value = "sending";
    socket().message({ t: "r", id: "mine", o: 0, d: sse("Mine") });
    expect(live.value).toBeNull();
    status.value = "idle";
    socket().message({ t: "r", id: "mine", o: 4, d: sse(" more") });
    expect(live.value).toBeNull();
    session.apply([reply("done", "Done")]);
    socket().message({ t: "r", id: "done", o: 0, d: sse("Done") });
    expect(live.value).toBeNull();
    expect(status.value).toBe("idle");
  });

  it("a message to the person handling the chat goes to the visitor-message route, not the model", async () => {
    const { api, session } = await setup();
    await sendToPerson({ api: API, fetch: api.fetch, session }, { id: "u9", content: "for Mei" });
    expect(api.requests.at(-1)).toMatchObject({
      method: "POST",
      path: "/v1/sessions/s1/messages",
      auth: "Bearer t1",
      body: { id: "u9", content: "for Mei" },
    });
    expect(api.requests.some((r) => r.path === "/v1/chat/completions")).toBe(false);
    expect(session.state.value.messages.map((m) => m.content)).toEqual(["for Mei"]);
    expect(session.log.seen.has("msg:u9")).toBe(true);
  });

  it("Stop on another tab's reply goes on the socket, or the HTTP route when there is none", async () => {
    const { api, socket, sync } = await setup();
    socket().message({ t: "r", id: "r3", o: 0, d: sse("Going") });
    sync.stop();
    expect(socket().frames().at(-1)).toEqual({ t: "stop", id: "r3" });
    socket().fail();
    sync.stop();
    await new Promise((r) => setTimeout(r, 0));
    expect(api.requests.at(-1)).toMatchObject({
      method: "POST",
      path: "/v1/sessions/s1/replies/r3/stop",
      auth: "Bearer t1",
    });
    sync.close();
  });
});
