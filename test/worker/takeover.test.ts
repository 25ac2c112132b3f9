import { afterEach, describe, expect, it, vi } from "vitest";
import { openSession, auth, call } from "../helpers/worker/client.ts";
import { delta, sseResponse } from "../helpers/worker/provider-sse.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { at, json, slowProvider, stateOf, staff, takeoverSite, visitor } from "../helpers/worker/takeover.ts";
import { PROVIDER_URL } from "../helpers/worker/scripted-provider.ts";
import type { LiveFrame } from "../../shared/session/live.ts";
import type { LiveOverview, StaffStepResponse } from "../../shared/takeover/takeover-api.ts";

afterEach(() => {
  vi.restoreAllMocks();
  clearConfigCache();
});

describe("a staff member takes over", () => {
  it("stops the reply streaming now (kept, interrupted) and the model gets no turn while they handle it", async () => {
    const siteKey = await takeoverSite(undefined, slowProvider());
    const mei = await staff(siteKey);
    const s = await openSession("derm-consult", {}, { siteKey });
    const v = visitor(s.token, s.sessionId);
    const { res: reply } = await v.chat([{ id: "q1", role: "user", content: "tell me a long story" }], "r1");
    expect(reply.status).toBe(200);
    const joined = await mei.join(s.sessionId);
    expect(joined.status).toBe(200);
    expect((await json<StaffStepResponse>(joined)).handler).toMatchObject({ kind: "person", name: "Mei" });
    await reply.text().catch(() => "");
    let state = await stateOf(s.sessionId);
    for (let i = 0; i < 40 && !state.messages.some((m) => m.id === "r1"); i++) {
      await new Promise((r) => setTimeout(r, 50));
      state = await stateOf(s.sessionId);
    }
    expect(state.messages.find((m) => m.id === "r1")?.status).toBe("interrupted");
    expect(state.handler).toMatchObject({ kind: "person", name: "Mei" });

    // The visitor's next message goes to staff: the chat route refuses it, the provider is never asked.
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const { res: refused } = await v.chat([{ id: "q2", role: "user", content: "hello?" }]);
    expect(refused.status).toBe(409);
    expect((await json(refused)).error.code).toBe("taken_over");
    const { res: plain } = await call("/v1/chat/completions", {
      method: "POST",
      json: { messages: [{ id: "q3", role: "user", content: "hi" }] },
      headers: auth(s.token),
    });
    expect(plain.status).toBe(409);
    expect(fetchSpy).not.toHaveBeenCalled();
    expect((await v.say("q2", "hello? are you there")).status).toBe(201);
    expect((await stateOf(s.sessionId)).messages.at(-1)).toMatchObject({ id: "q2", role: "user" });
  });

  it("refuses a stage workflow's turn too (its admission reads the state first), before the provider", async () => {
    const siteKey = await takeoverSite();
    const mei = await staff(siteKey);
    const s = await openSession("protocol-designer", {}, { siteKey });
    await mei.join(s.sessionId);
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const { res } = await visitor(s.token, s.sessionId).chat([{ id: "q1", role: "user", content: "a trial" }]);
    expect(res.status).toBe(409);
    expect((await json(res)).error.code).toBe("taken_over");
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("gives the conversation back to the agent when its person left without handing back", async () => {
    const siteKey = await takeoverSite();
    const mei = await staff(siteKey);
    const s = await openSession("derm-consult", {}, { siteKey });
    await mei.join(s.sessionId);
    expect((await visitor(s.token, s.sessionId).say("v1", "still there?")).status).toBe(201);
    // Mei's Live page closes (or dies: the same after PRESENCE_TTL_MS).
    expect((await mei.send("DELETE", "/v1/admin/live/presence")).status).toBe(204);
    const res = await visitor(s.token, s.sessionId).say("v2", "hello?");
    expect(res.status).toBe(409);
    expect((await json(res)).error.code).toBe("not_taken_over");
    const state = await stateOf(s.sessionId);
    expect(state.handler).toEqual({ kind: "agent" });
    expect(state.messages.map((m) => m.id)).not.toContain("v2");
  });

  it("refuses a second staff member (409 already_taken) and a message from one who did not join", async () => {
    const siteKey = await takeoverSite();
    const [mei, li] = [await staff(siteKey), await staff(siteKey, "Li")];
    const s = await openSession("derm-consult", {}, { siteKey });
    expect((await mei.join(s.sessionId)).status).toBe(200);
    expect((await mei.join(s.sessionId)).status).toBe(200); // again: the same person, no change
    const second = await li.join(s.sessionId, "Li");
    expect(second.status).toBe(409);
    const { error } = await json(second);
    expect(error).toMatchObject({ code: "already_taken" });
    expect(error.message).toContain("Mei");
    const wrong = await li.say(s.sessionId, "hi from Li");
    expect(wrong.status).toBe(409);
    expect((await json(wrong)).error.code).toBe("not_taken_over");
  });

  it(
    "carries messages both ways live over the session's channel, " + "and the model reads them after the hand back",
    async () => {
      // The model's turn after the hand back is answered by the stub below.
      const siteKey = await takeoverSite(undefined, PROVIDER_URL);
      const mei = await staff(siteKey);
      const s = await openSession("derm-consult", {}, { siteKey });
      const v = visitor(s.token, s.sessionId);
      // The visitor's tab on the live channel.
      const { res: sock } = await call(`/v1/sessions/${s.sessionId}/live`, {
        headers: { upgrade: "websocket", "sec-websocket-protocol": `parley.v1, bearer.${s.token}` },
      });
      const ws = sock.webSocket!;
      const frames: LiveFrame[] = [];
      ws.addEventListener("message", (m) => frames.push(JSON.parse(m.data as string)));
      ws.accept();
      ws.send(JSON.stringify({ t: "attach", after: 0 }));
      // Staff's view of the same channel.
      const { res: staffSock } = await call(at(`/v1/admin/live/${s.sessionId}/channel`), {
        headers: { upgrade: "websocket", "sec-websocket-protocol": "parley.v1", cookie: mei.cookie },
      });
      expect(staffSock.status).toBe(101);
      const staffFrames: LiveFrame[] = [];
      const sws = staffSock.webSocket!;
      sws.addEventListener("message", (m) => staffFrames.push(JSON.parse(m.data as string)));
      sws.accept();
      sws.send(JSON.stringify({ t: "attach", after: 0 }));

      await mei.join(s.sessionId);
      const said = await mei.say(s.sessionId, "Hi, I'm Mei from the clinic. How can I help?");
      expect(said.status).toBe(201);
      await v.say("v1", "Can I move my appointment to Friday?");
      await mei.say(s.sessionId, "Done: Friday at 10:00.");
      const seen = async (list: LiveFrame[], pred: (f: LiveFrame) => boolean) => {
        for (let i = 0; i < 60 && !list.some(pred); i++) await new Promise((r) => setTimeout(r, 25));
        return list.find(pred);
      };
      const staffMsg = await seen(
        frames,
        (f) => f.t === "e" && f.event.type === "message.appended" && !!f.event.data.message.author,
      );
      expect(staffMsg).toBeDefined();
      expect(await seen(frames, (f) => f.t === "e" && f.event.type === "staff.joined")).toBeDefined();
      expect(
        await seen(
          staffFrames,
          (f) => f.t === "e" && f.event.type === "message.appended" && f.event.data.message.id === "v1",
        ),
      ).toBeDefined();

      const back = await mei.handBack(s.sessionId);
      expect(back.status).toBe(200);
      expect((await stateOf(s.sessionId)).handler).toEqual({ kind: "agent" });

      // The widget sends the history it had before (not the staff part): the model still reads it all.
      const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValue(sseResponse([delta("Friday it is.")]));
      const { res, done } = await v.chat([{ id: "v2", role: "user", content: "Thanks! Anything to bring?" }]);
      expect(res.status).toBe(200);
      await res.text();
      await done();
      const sent = JSON.parse((fetchSpy.mock.calls[0][1] as RequestInit).body as string);
      const turns = sent.messages.map((m: any) => `${m.role}: ${m.content}`);
      expect(turns[0]).toMatch(/^system: [\s\S]*handed it back to you/);
      // Not a loop of handoffs (chatwoot#15068): the served request is not read as a new one.
      expect(turns[0]).toContain("do not ask for one again unless the visitor asks anew");
      expect(turns.slice(1)).toEqual([
        "assistant: [Mei, staff]: Hi, I'm Mei from the clinic. How can I help?",
        "user: Can I move my appointment to Friday?",
        "assistant: [Mei, staff]: Done: Friday at 10:00.",
        "user: Thanks! Anything to bring?",
      ]);
      ws.close();
      sws.close();
    },
  );

  it("records handled-by for the console's list and the Live page", async () => {
    const siteKey = await takeoverSite();
    const mei = await staff(siteKey);
    const s = await openSession("derm-consult", {}, { siteKey });
    await mei.join(s.sessionId);
    const live = await json<LiveOverview>(await mei.get("/v1/admin/live"));
    expect(live.live.find((l) => l.sessionId === s.sessionId)?.handler).toMatchObject({ kind: "person", name: "Mei" });
    const list = await json(await mei.get("/v1/admin/sessions?handledBy=human"));
    expect(list.sessions.map((x: any) => x.sessionId)).toContain(s.sessionId);
  });
});

describe("refusals", () => {
  it("refuses staff routes without the console's cookie or key, and another site's conversation", async () => {
    const siteKey = await takeoverSite();
    const otherSite = await takeoverSite();
    const s = await openSession("derm-consult", {}, { siteKey });
    const anon = await call(at(`/v1/admin/live/${s.sessionId}/join`), { method: "POST", json: { name: "X" } });
    expect(anon.res.status).toBe(401);
    expect((await call(at("/v1/admin/live"))).res.status).toBe(401);
    const other = await staff(otherSite);
    const cross = await other.join(s.sessionId);
    expect(cross.status).toBe(404);
    expect((await other.get(`/v1/admin/live/${s.sessionId}/channel`)).status).toBe(404);
    // A write without the CSRF header.
    const mei = await staff(siteKey);
    const { res: noCsrf } = await call(at(`/v1/admin/live/${s.sessionId}/join`), {
      method: "POST",
      json: { name: "Mei" },
      headers: { cookie: mei.cookie },
    });
    expect(noCsrf.status).toBe(403);
    // The name the visitor sees is the account's, whatever the page sends.
    const joined = await mei.join(s.sessionId, "Mallory");
    expect(joined.status).toBe(200);
    expect((await json<StaffStepResponse>(joined)).handler).toMatchObject({ kind: "person", name: "Mei" });
  });

  it(
    "refuses the visitor's routes for another session's token, a " + "staff id, and a message while the agent answers",
    async () => {
      const siteKey = await takeoverSite();
      const a = await openSession("derm-consult", {}, { siteKey });
      const b = await openSession("derm-consult", {}, { siteKey });
      expect((await visitor(b.token, a.sessionId).ask()).status).toBe(403);
      const notTaken = await visitor(a.token, a.sessionId).say("m1", "hello");
      expect(notTaken.status).toBe(409);
      expect((await json(notTaken)).error.code).toBe("not_taken_over");
      expect((await visitor(a.token, a.sessionId).say("staff-1", "forged")).status).toBe(403);
      const { res } = await visitor(a.token, a.sessionId).chat([{ id: "staff-2", role: "user", content: "forged" }]);
      expect(res.status).toBe(403);
    },
  );
});
