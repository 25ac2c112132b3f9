import { describe, expect, it } from "vitest";
import { runChatTurn } from "../../widget/agent/chat-turn.ts";
import { HttpError, NetworkError, isHttpError, isNetworkError, request } from "../../widget/transport/http.ts";
import { fakeApi } from "./fake-api.ts";

const API = "http://parley.test";
const history = [
  { id: "u1", role: "user" as const, content: "Hi" },
  { id: "a1", role: "assistant" as const, content: "Hello" },
  { id: "u2", role: "user" as const, content: "I have a rash" },
];

describe("runChatTurn", () => {
  it("posts the conversation with ids and a replyId, streams the reply, ends after one completion", async () => {
    const api = fakeApi({ reply: ["Possible ", "**eczema**", "."] });
    const deltas: string[] = [];
    const res = await runChatTurn({ api: API, token: "tok", messages: history, replyId: "r1", fetch: api.fetch, onDelta: (_d, t) => deltas.push(t) });
    expect(res).toMatchObject({ text: "Possible **eczema**.", end: "complete", finishReason: "stop", steps: 1 });
    expect(deltas).toEqual(["Possible ", "Possible **eczema**", "Possible **eczema**."]);
    expect(api.requests).toHaveLength(1);
    const [req] = api.requests;
    expect(req).toMatchObject({ method: "POST", path: "/v1/chat/completions", auth: "Bearer tok" });
    expect(req.body).toEqual({ stream: true, messages: history, parley: { replyId: "r1" } });
    expect(req.body.messages.some((m: { role: string }) => m.role === "system")).toBe(false);
  });

  it("collects streamed tool-call fragments and hands them back (no executor yet)", async () => {
    const api = fakeApi({ reply: ["Let me check."], toolCall: true });
    const res = await runChatTurn({ api: API, token: "t", messages: history, replyId: "r", fetch: api.fetch });
    expect(res.end).toBe("tool_calls");
    expect(res.toolCalls).toEqual([{ id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":"rash"}' } }]);
  });

  it("keeps the text so far when aborted", async () => {
    const api = fakeApi({ reply: ["one ", "two ", "three ", "four"], chunkDelayMs: 20 });
    const ctrl = new AbortController();
    const res = await runChatTurn({
      api: API, token: "t", messages: history, replyId: "r", fetch: api.fetch, signal: ctrl.signal,
      onDelta: (_d, text) => text === "one two " && ctrl.abort(),
    });
    expect(res).toMatchObject({ end: "aborted", text: "one two " });
  });

  it("throws the server's error code as an HttpError", async () => {
    const api = fakeApi({ chatError: { status: 429, code: "rate_limited" } });
    const err = await runChatTurn({ api: API, token: "t", messages: history, replyId: "r", fetch: api.fetch }).catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(isHttpError(err)).toBe(true);
    expect(err).toMatchObject({ status: 429, code: "rate_limited", message: "nope" });
  });
});

describe("http errors", () => {
  it("turns a failed fetch into a NetworkError and recognizes errors by name across realms", async () => {
    const err = await request(`${API}/x`, { fetch: () => Promise.reject(new TypeError("Failed to fetch")) }).catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    const foreign = Object.assign(new Error("x"), { name: "HttpError" });
    expect(isHttpError(foreign)).toBe(true);
    expect(isNetworkError({ name: "NetworkError" })).toBe(true);
  });

  it("times out while waiting for headers", async () => {
    const never = (_u: string, init?: RequestInit) =>
      new Promise<Response>((_r, reject) => init?.signal?.addEventListener("abort", () => reject(Object.assign(new Error("aborted"), { name: "AbortError" }))));
    await expect(request(`${API}/slow`, { fetch: never, timeoutMs: 20 })).rejects.toMatchObject({ name: "TimeoutError", message: `Request timed out: GET ${API}/slow` });
  });

  it("keeps a status-based code when the error body is not JSON", async () => {
    const err = await request(`${API}/x`, { fetch: async () => new Response("oops", { status: 502 }) }).catch((e) => e);
    expect(err).toMatchObject({ name: "HttpError", status: 502, code: "http_502" });
  });
});
