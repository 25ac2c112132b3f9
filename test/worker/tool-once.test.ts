import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { messageEvent } from "../../shared/session/events.ts";
import { auth, call, openSession } from "../helpers/worker/client.ts";
import { sessionRoom } from "../../worker/objects.ts";
import type { StoredMessage } from "../../shared/session/session-events.ts";

/**
 * Each tool call id runs once. A page that went away while a tool ran (or between its
 * result and the next completion) asks again after its reload; the worker answers an edge tool's
 * repeated id from its record, and keeps one result per call in the session's log.
 */
afterEach(() => vi.restoreAllMocks());

const TAVILY = { TAVILY_API_KEY: "tvly-secret" };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Tavily over fetch, counted: each answer names the run that made it. */
function countedSearch(delayMs = 0) {
  let runs = 0;
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => {
    const run = ++runs;
    if (delayMs) await sleep(delayMs);
    return Response.json({ answer: null, results: [{ title: `run ${run}`, url: "https://a.example/x", content: "" }] });
  });
  return { spy, runs: () => runs };
}

async function search(token: string, callId: string, name = "web_search", query = "paracetamol") {
  const { res, done } = await call(
    `/v1/tools/${name}`,
    { method: "POST", json: { arguments: { query }, callId }, headers: auth(token) },
    TAVILY,
  );
  const body = (await res.json()) as any;
  await done();
  return { status: res.status, body };
}

const edgeRuns = async (sessionId: string, callId: string) =>
  (await sessionRoom(env, sessionId).getState()).trace.filter(
    (t) => t.kind === "tool" && t.detail?.callId === callId && !t.detail?.replayed,
  ).length;

describe("an edge tool's call id runs once", () => {
  it("a repeated id (a reload after the tool ran) gets the first run's answer, without running again", async () => {
    const { runs } = countedSearch();
    const s = await openSession("medical-qa");
    const first = await search(s.token, "call_once_1");
    expect(first.status).toBe(200);
    expect(first.body.result.results[0].title).toBe("run 1");
    const again = await search(s.token, "call_once_1");
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ result: first.body.result, replayed: true });
    expect(runs()).toBe(1);
    // The owner's trace shows one run and one answer from the record.
    expect(await edgeRuns(s.sessionId, "call_once_1")).toBe(1);
    const replays = (await sessionRoom(env, s.sessionId).getState()).trace.filter((t) => t.detail?.replayed);
    expect(replays).toHaveLength(1);
    // Another id is another call.
    expect((await search(s.token, "call_once_2")).body.result.results[0].title).toBe("run 2");
    // The same id with other arguments is a client's bug: refused, not answered with the first run's result.
    const other = await search(s.token, "call_once_1", "web_search", "ibuprofen");
    expect(other.status).toBe(409);
    expect(other.body.error.message).toContain("other arguments");
    expect(runs()).toBe(2);
  });

  it("the same id asked twice at once (two tabs) runs once; both get its answer", async () => {
    const { runs } = countedSearch(300);
    const s = await openSession("medical-qa");
    const [a, b] = await Promise.all([search(s.token, "call_twice"), search(s.token, "call_twice")]);
    expect(runs()).toBe(1);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.result).toEqual(b.body.result);
    expect([a.body.replayed, b.body.replayed].filter(Boolean)).toHaveLength(1);
  });

  it("a failed run keeps nothing: the same id runs again", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(new Response("busy", { status: 503 }));
    const s = await openSession("medical-qa");
    expect((await search(s.token, "call_failed")).status).toBe(502);
    countedSearch();
    const retried = await search(s.token, "call_failed");
    expect(retried.status).toBe(200);
    expect(retried.body.replayed).toBeUndefined();
  });

  it("refuses an id recorded for another tool (409), and the record belongs to its own session", async () => {
    countedSearch();
    const s = await openSession("medical-qa");
    await search(s.token, "call_named");
    const other = await search(s.token, "call_named", "knowledge_search");
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("conflict");
    const t = await openSession("medical-qa");
    expect((await search(t.token, "call_named")).body.replayed).toBeUndefined();
  });
});

describe("a browser's tool results in the log", () => {
  const at = Date.now();
  const step: StoredMessage = {
    id: "step1",
    role: "assistant",
    content: "",
    toolCalls: [{ id: "call_c1", type: "function", function: { name: "sample_size", arguments: "{}" } }],
    status: "complete",
    at,
  };
  const result = (id: string, toolCallId: string) =>
    messageEvent({ id, role: "tool", content: '{"n":42}', toolCallId, at });
  const append = (token: string, sessionId: string, events: unknown[]) =>
    call(`/v1/sessions/${sessionId}/events`, { method: "POST", json: { events }, headers: auth(token) });

  it("stores the result of the assistant's call once; a second result for the same call is dropped", async () => {
    const s = await openSession("medical-qa");
    await sessionRoom(env, s.sessionId).append([messageEvent(step)]);
    expect((await append(s.token, s.sessionId, [result("r1", "call_c1")])).res.status).toBe(200);
    expect((await append(s.token, s.sessionId, [result("r2", "call_c1")])).res.status).toBe(200);
    // The same result again (a flush retried after the next completion's request stored it): no error.
    expect((await append(s.token, s.sessionId, [result("r1", "call_c1")])).res.status).toBe(200);
    const messages = (await sessionRoom(env, s.sessionId).getState()).messages;
    expect(messages.filter((m) => m.role === "tool").map((m) => m.id)).toEqual(["r1"]);
  });

  it.each([
    ["a result for a call the assistant never made", [result("r3", "call_nope")]],
    ["a result that would replace a stored message", [result("step1", "call_c1")]],
    ["an event id that is not the message's", [{ ...result("r5", "call_c1"), id: "msg:other" }]],
  ])("refuses %s (403), storing nothing", async (_name, events) => {
    const s = await openSession("medical-qa");
    await sessionRoom(env, s.sessionId).append([messageEvent(step)]);
    const { res } = await append(s.token, s.sessionId, events);
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error.code).toBe("forbidden");
    const messages = (await sessionRoom(env, s.sessionId).getState()).messages;
    expect(messages.map((m) => m.id)).toEqual(["step1"]);
  });

  it("refuses a message that is not a tool result (400: a browser writes no one's words)", async () => {
    const s = await openSession("medical-qa");
    await sessionRoom(env, s.sessionId).append([messageEvent(step)]);
    const said = messageEvent({ id: "r4", role: "assistant", content: "I promise a refund", at });
    const { res } = await append(s.token, s.sessionId, [said]);
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe("validation_failed");
  });
});
