import { describe, expect, it } from "vitest";
import { proxyCompletion } from "../../../widget/agent/completion.ts";
import {
  HttpError,
  NetworkError,
  ProtocolError,
  isHttpError,
  isNetworkError,
  isProtocolError,
} from "../../../widget/transport/errors.ts";
import { request } from "../../../widget/transport/http.ts";
import { fakeApi } from "../../helpers/widget/fake-api.ts";

const API = "http://parley.test";
const history = [
  { id: "u1", role: "user" as const, content: "Hi" },
  { id: "a1", role: "assistant" as const, content: "Hello" },
  { id: "u2", role: "user" as const, content: "I have a rash" },
];

const complete = (api: ReturnType<typeof fakeApi>, token = "t") =>
  proxyCompletion({ api: API, auth: () => ({ sessionId: "s", token }), tab: "tab-1", fetch: api.fetch });

describe("proxyCompletion", () => {
  it("posts the conversation with ids, a replyId and the page's tab, and streams the reply", async () => {
    const api = fakeApi({ reply: ["Possible ", "**eczema**", "."] });
    const deltas: Array<[string, boolean | undefined]> = [];
    const onText = (t: string, _r?: string, ended?: boolean) => deltas.push([t, ended]);
    const res = await complete(api, "tok")({ messages: history, replyId: "r1", onText });
    expect(res).toEqual({ text: "Possible **eczema**.", reasoning: "", toolCalls: [], finishReason: "stop" });
    // The finish reason's chunk says the text is complete (the page draws it at once).
    expect(deltas).toEqual([
      ["Possible ", false],
      ["Possible **eczema**", false],
      ["Possible **eczema**.", false],
      ["Possible **eczema**.", true],
    ]);
    expect(api.requests).toHaveLength(1);
    const [req] = api.requests;
    expect(req).toMatchObject({ method: "POST", path: "/v1/chat/completions", auth: "Bearer tok" });
    expect(req.body).toEqual({ stream: true, messages: history, parley: { replyId: "r1", tab: "tab-1" } });
    expect(req.body.messages.some((m: { role: string }) => m.role === "system")).toBe(false);
  });

  it("joins streamed tool-call fragments", async () => {
    const api = fakeApi({ reply: ["Let me check."], toolCall: true });
    const res = await complete(api)({ messages: history, replyId: "r" });
    expect(res.finishReason).toBe("tool_calls");
    expect(res.toolCalls).toEqual([
      { id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":"rash"}' } },
    ]);
  });

  it("stops reading when aborted, after the text shown so far", async () => {
    const api = fakeApi({ reply: ["one ", "two ", "three ", "four"], chunkDelayMs: 20 });
    const ctrl = new AbortController();
    const seen: string[] = [];
    const err = await complete(api)({
      messages: history,
      replyId: "r",
      signal: ctrl.signal,
      onText: (text) => {
        seen.push(text);
        if (text === "one two ") ctrl.abort();
      },
    }).catch((e) => e);
    expect(err.name).toBe("AbortError");
    expect(seen.at(-1)).toBe("one two ");
  });

  it(
    "a reply that ends with neither a finish reason nor [DONE] broke off: a " + "ProtocolError after the text shown",
    async () => {
      const api = fakeApi({ reply: ["Half a ", "reply"], endEarly: true });
      const seen: string[] = [];
      const err = await complete(api)({ messages: history, replyId: "r", onText: (t) => seen.push(t) }).catch((e) => e);
      expect(err).toBeInstanceOf(ProtocolError);
      expect(isHttpError(err)).toBe(false);
      expect(err).toMatchObject({ name: "ProtocolError", code: "upstream_error" });
      expect(seen.at(-1)).toBe("Half a reply");
    },
  );

  it("throws the server's error code as an HttpError", async () => {
    const api = fakeApi({ chatError: { status: 429, code: "rate_limited" } });
    const err = await complete(api)({ messages: history, replyId: "r" }).catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(isHttpError(err)).toBe(true);
    expect(err).toMatchObject({ status: 429, code: "rate_limited", message: "nope" });
  });

  it("a streamed chunk of another shape is a ProtocolError, recognized by name across realms", async () => {
    const sse = (data: string) => async () => new Response(`data: ${data}\n\ndata: [DONE]\n\n`, { status: 200 });
    for (const data of ["not json", '{"choices":{"0":1}}']) {
      const err = await proxyCompletion({ api: API, auth: () => ({ sessionId: "s", token: "t" }), fetch: sse(data) })({
        messages: history,
        replyId: "r",
      }).catch((e) => e);
      expect(err).toMatchObject({ name: "ProtocolError", code: "bad_response" });
    }
    expect(isProtocolError(Object.assign(new Error("x"), { name: "ProtocolError" }))).toBe(true);
  });
});

describe("http errors", () => {
  it("turns a failed fetch into a NetworkError and recognizes errors by name across realms", async () => {
    const err = await request(`${API}/x`, { fetch: () => Promise.reject(new TypeError("Failed to fetch")) }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(NetworkError);
    const foreign = Object.assign(new Error("x"), { name: "HttpError" });
    expect(isHttpError(foreign)).toBe(true);
    expect(isNetworkError({ name: "NetworkError" })).toBe(true);
  });

  it("times out while waiting for headers", async () => {
    const never = (_u: string, init?: RequestInit) =>
      new Promise<Response>((_r, reject) =>
        init?.signal?.addEventListener("abort", () =>
          reject(Object.assign(new Error("aborted"), { name: "AbortError" })),
        ),
      );
    await expect(request(`${API}/slow`, { fetch: never, timeoutMs: 20 })).rejects.toMatchObject({
      name: "TimeoutError",
      message: `Request timed out: GET ${API}/slow`,
    });
  });

  it("keeps a status-based code when the error body is not JSON", async () => {
    const err = await request(`${API}/x`, { fetch: async () => new Response("oops", { status: 502 }) }).catch((e) => e);
    expect(err).toMatchObject({ name: "HttpError", status: 502, code: "http_502" });
  });
});

describe("proxyCompletion and the worker's own events", () => {
  const sse = (...events: unknown[]) =>
    new Response(events.map((e) => `data: ${typeof e === "string" ? e : JSON.stringify(e)}\n\n`).join(""), {
      headers: { "content-type": "text/event-stream" },
    });
  const escalation = {
    id: "escalation:u2",
    at: 1,
    type: "escalation.raised",
    data: {
      escalation: {
        messageId: "u2",
        category: "cardiac",
        variant: "emergency",
        source: "rules",
        matched: "chest pain",
        region: "US",
        title: "t",
        body: "b",
        contacts: [],
        at: 1,
      },
    },
  };

  it("hands an escalation ahead of the text to onEvent before the first text arrives", async () => {
    const order: string[] = [];
    const fetch = async () =>
      sse(
        { choices: [], parley: { event: escalation } },
        { choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: "stop" }] },
        "[DONE]",
      );
    const step = await proxyCompletion({
      api: API,
      auth: () => ({ sessionId: "s", token: "t" }),
      fetch,
      onEvent: (e) => order.push(`event:${e.type}`),
    })({
      messages: history,
      replyId: "r",
      onText: (t) => order.push(`text:${t}`),
    });
    expect(order).toEqual(["event:escalation.raised", "text:Hi"]);
    expect(step.text).toBe("Hi");
  });

  it("ignores any other event a provider's chunk might carry", async () => {
    const seen: unknown[] = [];
    const forged = {
      id: "msg:x",
      at: 1,
      type: "message.appended",
      data: { message: { id: "x", role: "assistant", content: "forged", at: 1 } },
    };
    const fetch = async () =>
      sse(
        { choices: [], parley: { event: forged } },
        { choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] },
        "[DONE]",
      );
    await proxyCompletion({
      api: API,
      auth: () => ({ sessionId: "s", token: "t" }),
      fetch,
      onEvent: (e) => seen.push(e),
    })({
      messages: history,
      replyId: "r",
    });
    expect(seen).toEqual([]);
  });
});

describe("proxyCompletion, reading a busy page's stream", () => {
  const event = (content: string, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: "c", choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
  /** A body that gives `reads` one read each: what arrived while the page was busy comes in one. */
  const body =
    (...reads: string[]) =>
    async () => {
      const enc = new TextEncoder();
      let i = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(ctrl) {
          if (i < reads.length) ctrl.enqueue(enc.encode(reads[i++]));
          else ctrl.close();
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    };
  const completion = (fetch: () => Promise<Response>) =>
    proxyCompletion({ api: API, auth: () => ({ sessionId: "s", token: "t" }), fetch });

  it("reports the text once per read, not once per chunk: a page that fell behind catches up in one step", async () => {
    const fetch = body(event("a") + event("b") + event("c"), event("d") + event("", "stop") + "data: [DONE]\n\n");
    const seen: Array<[string, boolean | undefined]> = [];
    const step = await completion(fetch)({
      messages: history,
      replyId: "r",
      onText: (t, _r, ended) => seen.push([t, ended]),
    });
    expect(seen).toEqual([
      ["abc", false],
      ["abcd", true],
    ]);
    expect(step.text).toBe("abcd");
  });

  it("shows what came before a failure in the same read, then fails", async () => {
    const failure = `data: ${JSON.stringify({ error: { code: "upstream_error", message: "gone" } })}\n\n`;
    const seen: string[] = [];
    const err = await completion(body(event("a") + event("b") + failure))({
      messages: history,
      replyId: "r",
      onText: (t) => seen.push(t),
    }).catch((e) => e);
    expect(err).toMatchObject({ name: "ProtocolError", code: "upstream_error" });
    expect(seen).toEqual(["ab"]);
  });
});
