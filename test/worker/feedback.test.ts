import { describe, expect, it } from "vitest";
import { auth, call, openSession } from "../helpers/worker/client.ts";
import { env } from "cloudflare:workers";
import { sessionRoom } from "../../worker/objects.ts";

const json = async (r: Response) => (await r.json()) as any;

async function chatted(agent = "sales-coach") {
  const s = await openSession(agent);
  const c = await call("/v1/chat/completions", {
    method: "POST",
    json: {
      stream: true,
      messages: [{ id: "q1", role: "user", content: "A clinic asks whether our moisturiser suits eczema patients" }],
      parley: { replyId: "a1" },
    },
    headers: auth(s.token),
  });
  await c.res.text();
  await c.done();
  return s;
}

const rate = (s: { sessionId: string; token: string }, body: unknown) =>
  call(`/v1/sessions/${s.sessionId}/feedback`, { method: "POST", json: body, headers: auth(s.token) });

describe("POST /v1/sessions/:id/feedback", () => {
  it("stores a rating as a session event that the shared reducer folds; a later rating replaces it", async () => {
    const s = await chatted();
    const up = await rate(s, { messageId: "a1", rating: "up" });
    expect(up.res.status).toBe(201);
    const { events } = await json(up.res);
    expect(events[0]).toMatchObject({ type: "feedback.given", data: { messageId: "a1", rating: "up" } });
    const down = await rate(s, { messageId: "a1", rating: "down", comment: "  too pushy about price  " });
    await down.done();
    const state = await sessionRoom(env, s.sessionId).getState();
    expect(state.feedback.a1).toMatchObject({ rating: "down", comment: "too pushy about price" });
  });

  it.each([
    ["a message that is not an assistant reply", { messageId: "q1", rating: "up" }, 404, "not_found"],
    ["an unknown rating", { messageId: "a1", rating: "meh" }, 400, "validation_failed"],
    [
      "a comment over 1000 characters",
      { messageId: "a1", rating: "down", comment: "x".repeat(1001) },
      400,
      "validation_failed",
    ],
  ])("refuses %s", async (_what, body, status, code) => {
    const s = await chatted();
    const { res } = await rate(s, body);
    expect(res.status).toBe(status);
    expect((await json(res)).error.code).toBe(code);
  });

  it("refuses another session's token", async () => {
    const s = await chatted();
    const other = await openSession("sales-coach");
    const { res } = await call(`/v1/sessions/${s.sessionId}/feedback`, {
      method: "POST",
      json: { messageId: "a1", rating: "up" },
      headers: auth(other.token),
    });
    expect(res.status).toBe(403);
  });
});
