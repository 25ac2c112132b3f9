import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { messageEvent } from "../../shared/session/events.ts";
import { openSession, auth, call } from "../helpers/worker/client.ts";
import { delta, sseResponse } from "../helpers/worker/provider-sse.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { json, slowProvider, stateOf, staff, takeoverSite, visitor } from "../helpers/worker/takeover.ts";
import { sessionRoom } from "../../worker/objects.ts";

afterEach(() => {
  vi.restoreAllMocks();
  clearConfigCache();
});

const REFUND = "Your refund of 40 EUR is approved";
const completion = (content: string) =>
  Response.json({
    id: "c",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  });

/** Staff joined, wrote and handed back; the staff message's id as the visitor's own state shows it. */
async function handedBack() {
  const siteKey = await takeoverSite(undefined, slowProvider());
  const mei = await staff(siteKey);
  const s = await openSession("derm-consult", {}, { siteKey });
  expect((await mei.join(s.sessionId)).status).toBe(200);
  expect((await mei.say(s.sessionId, REFUND)).status).toBe(201);
  expect((await mei.handBack(s.sessionId)).status).toBe(200);
  const { res } = await call(`/v1/sessions/${s.sessionId}`, { headers: auth(s.token) });
  const staffId = (await json(res)).state.messages.find((m: any) => m.author).id as string;
  return { siteKey, mei, s, v: visitor(s.token, s.sessionId), staffId };
}

const stop = (s: { sessionId: string; token: string }, replyId: string) =>
  call(`/v1/sessions/${s.sessionId}/replies/${encodeURIComponent(replyId)}/stop`, {
    method: "POST",
    headers: auth(s.token),
  });

/** A streamed reply that started: read its first bytes, Stop it, read to the end. */
async function cutShort(s: { sessionId: string; token: string }, res: Response, replyId: string) {
  const reader = res.body!.getReader();
  await reader.read();
  await stop(s, replyId);
  while (!(await reader.read().catch(() => ({ done: true }))).done);
}

/** The session's state once `ready` holds of it (a reply is stored when its stream ends). */
async function stateWhen(sid: string, ready: (st: Awaited<ReturnType<typeof stateOf>>) => boolean) {
  let st = await stateOf(sid);
  for (let i = 0; i < 60 && !ready(st); i++) {
    await new Promise((r) => setTimeout(r, 25));
    st = await stateOf(sid);
  }
  return st;
}

describe("a reply id names a new reply, never a stored message", () => {
  it("a visitor cannot replace what staff wrote: a reply under a staff message's id is refused", async () => {
    const { siteKey, mei, s, v, staffId } = await handedBack();
    // The attack: a streamed reply under the staff message's id, stopped, so its cut copy is stored.
    const { res } = await v.chat([{ id: "q1", role: "user", content: "tell me a long story" }], staffId);
    const status = res.status;
    if (res.ok) await cutShort(s, res, staffId);
    else expect((await json(res)).error).toMatchObject({ code: "forbidden" });
    const state = await stateWhen(s.sessionId, (st) => st.messages.find((m) => m.id === staffId)?.author === undefined);
    expect(state.messages.find((m) => m.id === staffId)).toMatchObject({
      role: "assistant",
      content: REFUND,
      status: "complete",
      author: { name: "Mei" },
    });
    // Nothing of the refused turn is stored, and the owner's list still says a person handled it.
    expect(state.messages.map((m) => m.id)).toEqual([staffId]);
    expect(status).toBe(403);
    const list = await json(await mei.get(`/v1/admin/sessions?site=${siteKey}&handledBy=human`));
    expect(list.sessions.map((x: any) => x.sessionId)).toContain(s.sessionId);
  });

  it("refuses a reply under the id of any stored message: the visitor's own, a complete reply", async () => {
    const { s, v, staffId } = await handedBack();
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(sseResponse([delta("Hello.")]));
    const first = await v.chat([{ id: "q1", role: "user", content: "hello" }], "a1");
    expect(first.res.status).toBe(200);
    await first.res.text();
    await first.done();
    for (const id of ["q1", "a1"]) {
      const { res } = await v.chat([{ id: "q2", role: "user", content: "again" }], id);
      if (res.ok) await cutShort(s, res, id);
      expect(res.status).toBe(409);
      expect((await json(res)).error.code).toBe("conflict");
    }
    const state = await stateOf(s.sessionId);
    expect(state.messages.map((m) => [m.id, m.role, m.status ?? null])).toEqual([
      [staffId, "assistant", "complete"],
      ["q1", "user", null],
      ["a1", "assistant", "complete"],
    ]);
  });

  it("refuses an unstreamed reply under a stored message's id too, before the provider is asked", async () => {
    const { s, staffId } = await handedBack();
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => completion("Hi."));
    const send = (replyId: string) =>
      call("/v1/chat/completions", {
        method: "POST",
        json: { messages: [{ id: "q9", role: "user", content: "hi" }], parley: { replyId } },
        headers: auth(s.token),
      });
    const forged = await send(staffId);
    expect(forged.res.status).toBe(403);
    await forged.done();
    const first = await send("n1");
    expect(first.res.status).toBe(200);
    await first.done();
    const twice = await send("n1");
    expect(twice.res.status).toBe(409);
    await twice.done();
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect((await stateOf(s.sessionId)).messages.find((m) => m.id === staffId)).toMatchObject({ content: REFUND });
  });

  it("still lets a cut reply run again under its own id (the visitor's retry)", async () => {
    const siteKey = await takeoverSite(undefined, slowProvider());
    const s = await openSession("derm-consult", {}, { siteKey });
    const v = visitor(s.token, s.sessionId);
    const { res } = await v.chat([{ id: "q1", role: "user", content: "tell me a long story" }], "r1");
    await cutShort(s, res, "r1");
    await stateWhen(s.sessionId, (st) => st.messages.some((m) => m.id === "r1"));
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(sseResponse([delta("The end.")]));
    const again = await v.chat([{ id: "q1", role: "user", content: "tell me a long story" }], "r1");
    expect(again.res.status).toBe(200);
    await again.res.text();
    await again.done();
    const state = await stateWhen(s.sessionId, (st) => st.messages.at(-1)?.status === "complete");
    expect(state.messages.map((m) => [m.id, m.status ?? null, m.content])).toEqual([
      ["q1", null, "tell me a long story"],
      ["r1", "complete", "The end."],
    ]);
  });

  it("refuses a visitor message under the id of a cut reply (it would take the reply's place)", async () => {
    const siteKey = await takeoverSite(undefined, slowProvider());
    const s = await openSession("derm-consult", {}, { siteKey });
    const v = visitor(s.token, s.sessionId);
    const { res } = await v.chat([{ id: "q1", role: "user", content: "tell me a long story" }], "r1");
    await cutShort(s, res, "r1");
    await stateWhen(s.sessionId, (st) => st.messages.some((m) => m.id === "r1"));
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(sseResponse([delta("Sure.")]));
    const forged = await v.chat([{ id: "r1", role: "user", content: "I never said that" }]);
    expect(forged.res.status).toBe(409);
    expect((await json(forged.res)).error.code).toBe("conflict");
    await forged.done();
    const state = await stateOf(s.sessionId);
    expect(state.messages.find((m) => m.id === "r1")).toMatchObject({ role: "assistant", status: "interrupted" });
  });

  it("the log itself keeps a stored message, whatever path an event comes by", async () => {
    const { s, staffId } = await handedBack();
    const room = sessionRoom(env, s.sessionId);
    const at = Date.now();
    await room.append([
      messageEvent({ id: staffId, role: "assistant", content: "", status: "interrupted", at }, ":interrupted"),
      messageEvent({ id: staffId, role: "user", content: "I never said that", at }, ":again"),
    ]);
    const state = await stateOf(s.sessionId);
    expect(state.messages).toHaveLength(1);
    expect(state.messages[0]).toMatchObject({ id: staffId, content: REFUND, author: { name: "Mei" } });
  });
});
