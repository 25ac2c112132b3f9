import { describe, expect, inject, it } from "vitest";
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import type { LiveFrame } from "../../shared/session/live.ts";
import type { RestoredSessionResponse } from "../../shared/wire/api.ts";
import { auth, call, openSession, readSse } from "../helpers/worker/client.ts";
import { GENERIC_REPLY } from "../helpers/fake-upstream.ts";
import { providerSite } from "../helpers/worker/sites.ts";
import { cutReplies } from "../../worker/session/reply-runner.ts";
import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import { sessionRoom } from "../../worker/objects.ts";

/**
 * Checkpoint recovery (the agents SDK's clients stuck "streaming" after a recovery,
 * cloudflare/agents#1485 and cloudflare/agents#1914): the session's object ends while a reply streams.
 * Its text was written down each second; a later read gets the reply as far as that, marked
 * interrupted, nobody is told it still streams, and asking again runs it anew.
 */
/** A site whose provider (a profile) answers over a real socket, one chunk every 50 ms. */
const site = providerSite(inject("slowUpstreamUrl"));
const open = async () => openSession("derm-consult", {}, { siteKey: await site });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The reply's text in SSE text, whole events only (a checkpoint can end inside one). */
const contentOf = (sse: string) =>
  sse
    .split("\n\n")
    .slice(0, -1)
    .filter((b) => b.startsWith("data: {"))
    .map((b) => JSON.parse(b.slice(6)).choices?.[0]?.delta?.content ?? "")
    .join("");

function startReply(token: string, replyId: string) {
  const json = {
    stream: true,
    messages: [{ id: `${replyId}-q`, role: "user", content: "checkpoint" }],
    parley: { replyId },
  };
  return call("/v1/chat/completions", { method: "POST", json, headers: auth(token) });
}

/** Reads a response until it ends or breaks; answers what arrived and whether it ended cleanly. */
async function drain(res: Response): Promise<{ text: string; ended: boolean }> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let text = "";
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) text += dec.decode(next.value);
    return { text, ended: true };
  } catch {
    return { text, ended: false };
  }
}

async function restore(sessionId: string, token: string): Promise<RestoredSessionResponse> {
  const { res } = await call(`/v1/sessions/${sessionId}`, { headers: auth(token) });
  expect(res.status).toBe(200);
  return (await res.json()) as RestoredSessionResponse;
}

describe("the session's object ends while a reply streams", () => {
  it(
    "keeps the reply as far as it was checkpointed, interrupted; " + "no client is left streaming; retry runs anew",
    async () => {
      const s = await open();
      const { res: chat } = await startReply(s.token, "cp1");
      const reader = chat.body!.getReader();
      const dec = new TextDecoder();
      let had = "";
      const saved = (state: DurableObjectState) =>
        state.storage.sql
          .exec<{ text: string }>("SELECT text FROM live_reply_parts WHERE id = 'cp1' ORDER BY o")
          .toArray()
          .map((r) => r.text)
          .join("");
      // The reply is read until its first checkpoint (about a second in) has been written.
      while (!(await runInDurableObject(sessionRoom(env, s.sessionId), (_obj, state) => saved(state)))) {
        const next = await reader.read();
        if (next.done) throw new Error("the reply ended before the object could be reset");
        had += dec.decode(next.value, { stream: true });
      }
      // A second client follows the same reply on the live channel's SSE form.
      const { res: follower } = await call(`/v1/sessions/${s.sessionId}/live?reply=cp1&from=${had.length}`, {
        headers: auth(s.token),
      });
      const following = drain(follower);

      // The object ends (an eviction, a deploy, a crash): its memory, its provider request and its clients go.
      // What it had written down is read in the same call, so no later checkpoint comes between.
      let checkpointed = "";
      await runInDurableObject(sessionRoom(env, s.sessionId), (_obj, state) => {
        checkpointed = saved(state);
        state.abort("reset mid-reply");
      }).then(
        () => expect.unreachable("abort() ends the call that made it"),
        (e: Error) => expect(e.message).toBe("reset mid-reply"),
      );
      expect(checkpointed.length).toBeGreaterThan(0);
      // Neither reader hangs: the chat response and the follower both end (broken: no [DONE]).
      const rest = await Promise.race([
        (async () => {
          try {
            for (let next = await reader.read(); !next.done; next = await reader.read())
              had += dec.decode(next.value, { stream: true });
            return "ended";
          } catch {
            return "broke";
          }
        })(),
        sleep(8_000).then(() => "hung"),
      ]);
      expect(rest).not.toBe("hung");
      // What the client got and what was written down agree as far as both go (the reset can drop the last
      // bytes on their way to the client).
      const both = Math.min(had.length, checkpointed.length);
      expect(had.slice(0, both)).toBe(checkpointed.slice(0, both));
      const followed = await Promise.race([following, sleep(8_000).then(() => null)]);
      expect(followed).not.toBeNull();
      expect(followed!.text).not.toContain('"status":"complete"');
      expect(had).not.toContain("data: [DONE]");

      // A later read: the reply as far as its checkpoint, interrupted, and nothing said to be streaming.
      const back = await restore(s.sessionId, s.token);
      expect(back.streaming).toEqual([]);
      const kept = back.state.messages.find((m) => m.id === "cp1");
      expect(kept?.status).toBe("interrupted");
      expect(kept!.content.length).toBeGreaterThan(0);
      expect(GENERIC_REPLY.startsWith(kept!.content)).toBe(true);
      expect(kept!.content).toBe(contentOf(checkpointed));
      // What it cost so far is counted (estimated from the text), and the owner's trace says why it ended.
      expect(back.state.usage.completionTokens).toBeGreaterThan(0);
      const step = back.state.trace.find((t) => t.kind === "completion" && t.detail?.replyId === "cp1");
      expect(step).toMatchObject({ ok: false, detail: { status: "interrupted" } });
      // A client reattaching to it now is told at once that the reply is not here (the log has it).
      const { res: late } = await call(`/v1/sessions/${s.sessionId}/live?reply=cp1&from=0`, { headers: auth(s.token) });
      const frames = (await readSse(late)).map((d) => JSON.parse(d) as LiveFrame);
      expect(frames).toEqual([{ t: "end", id: "cp1", status: "gone" }]);

      // Retry: the same reply id runs anew (no 409 for a reply that is not streaming) and completes.
      const { res: again, done } = await startReply(s.token, "cp1");
      expect(again.status).toBe(200);
      expect(contentOf(await again.text())).toBe(GENERIC_REPLY);
      await done();
      const after = await restore(s.sessionId, s.token);
      const replies = after.state.messages.filter((m) => m.id === "cp1");
      expect(replies.map((m) => [m.status, m.content])).toEqual([["complete", GENERIC_REPLY]]);
      expect(after.streaming).toEqual([]);
    },
    30_000,
  );

  it("joins a reply's checkpoints, written part by part, in order of offset", async () => {
    const s = await open();
    const cut = await runInDurableObject(sessionRoom(env, s.sessionId), (_obj, state) => {
      const sql = state.storage.sql;
      // Written out of order on purpose: the offset orders them.
      sql.exec("INSERT INTO live_reply_parts (id, o, text) VALUES ('p1', 12, ?)", '"content":"lo"}}]}\n\n');
      sql.exec("INSERT INTO live_reply_parts (id, o, text) VALUES ('p1', 0, ?)", 'data: {"choices":[{"delta":{');
      const events = cutReplies(sql);
      const left = sql.exec("SELECT COUNT(*) AS n FROM live_reply_parts").one().n;
      return { events, left };
    });
    expect(cut.left).toBe(0);
    const reply = cut.events.find((e) => e.type === EVENT_TYPES.messageAppended);
    expect(reply).toMatchObject({ data: { message: { id: "p1", content: "lo", status: "interrupted" } } });
  });
});
