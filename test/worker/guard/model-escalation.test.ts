import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { EVENT_TYPES } from "../../../shared/wire/protocol.ts";
import { proxyCompletion } from "../../../widget/agent/completion.ts";
import { offersEscalationTool } from "../../../worker/guard/model-escalation.ts";
import { auth, call, openSession, readSse } from "../../helpers/worker/client.ts";
import { escalateCall, scriptedProvider } from "../../helpers/worker/scripted-provider.ts";
import { scriptedSite } from "../../helpers/worker/sites.ts";
import { sessionRoom } from "../../../worker/objects.ts";
import type { SessionEvent } from "../../../shared/session/session-events.ts";

/**
 * The emergency guard's model layer through the real chat route and the session's object: the
 * agent's model calls escalate_emergency, the worker raises the escalation before any of the
 * reply's text and asks the model for the rest; the browser never sees the call.
 */
afterEach(() => vi.restoreAllMocks());

/** The sessions' site: a copy of the demo site whose provider is the scripted one. */
const site = scriptedSite();

/**
 * A conversation whose latest message alone says nothing alarming (the rules read only that one):
 * the emergency is in the message before it, which the model reads and the rules do not.
 */
const CONVERSATION = [
  { id: "u0", role: "user", content: "My two month old is floppy and burning hot." },
  { id: "a0", role: "assistant", content: "How long has this been going on?" },
  { id: "u1", role: "user", content: "Since this morning. What should I do?" },
];
const ANSWER = "Call an ambulance now; keep her with you until they come.";

/** The model's first step calls the tool; given its result, it answers. */
const callsThenAnswers = (body: any) =>
  body.messages.at(-1).role === "tool"
    ? { content: ANSWER, usage: [30, 12] as [number, number] }
    : {
        toolCalls: [escalateCall("child", "two month old is floppy and burning hot")],
        usage: [20, 8] as [number, number],
      };

function chat(token: string, json: unknown) {
  return call("/v1/chat/completions", { method: "POST", json, headers: auth(token) });
}

const stateOf = (sessionId: string) => sessionRoom(env, sessionId).getState();
const parsed = (events: string[]) => events.filter((e) => e !== "[DONE]").map((e) => JSON.parse(e));
const textOf = (chunks: any[]) => chunks.map((c) => c.choices?.[0]?.delta?.content ?? "").join("");

describe("the model's escalate_emergency call, streamed", () => {
  it("raises the escalation on the worker before any reply text; the call never reaches the client", async () => {
    const provider = scriptedProvider(callsThenAnswers);
    const s = await openSession("medical-qa", {}, { siteKey: await site });
    const { res, done } = await chat(s.token, { stream: true, messages: CONVERSATION, parley: { replyId: "r1" } });
    const events = await readSse(res);
    await done();
    const chunks = parsed(events);
    // The card first, then the answer; no escalate_emergency delta anywhere in the client's stream.
    const card = chunks.findIndex((c) => c.parley);
    expect(chunks[card].parley.event.type).toBe(EVENT_TYPES.escalationRaised);
    expect(chunks[card].parley.event.data.escalation).toMatchObject({
      messageId: "u1",
      category: "child",
      situation: "child",
      variant: "emergency",
      source: "model",
      matched: "two month old is floppy and burning hot",
    });
    const firstText = chunks.findIndex((c) => c.choices?.[0]?.delta?.content);
    expect(firstText).toBeGreaterThan(card);
    expect(events.join("\n")).not.toContain("escalate_emergency");
    expect(textOf(chunks)).toBe(ANSWER);
    expect(events.at(-1)).toBe("[DONE]");
    // One usage chunk, both requests' tokens.
    expect(chunks.filter((c) => c.usage).map((c) => c.usage)).toEqual([
      { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 },
    ]);

    // The second request: the model's call and the worker's result after the turn's messages.
    const [first, second] = provider.chats();
    expect(first.body.tools.map((t: any) => t.function.name)).toContain("escalate_emergency");
    expect(first.body.messages[0].content).toContain("call escalate_emergency before you write anything");
    const [callMsg, result] = second.body.messages.slice(-2);
    expect(callMsg).toMatchObject({ role: "assistant", tool_calls: [{ function: { name: "escalate_emergency" } }] });
    expect(result.role).toBe("tool");
    expect(result.tool_call_id).toBe(callMsg.tool_calls[0].id);
    expect(JSON.parse(result.content)).toMatchObject({ shown: true });
    expect(JSON.parse(result.content).instruction).toContain("911");

    // Stored: the escalation (the model decided, as the trace says) and the reply the visitor saw.
    const state = await stateOf(s.sessionId);
    expect(state.escalations).toMatchObject([{ messageId: "u1", source: "model", category: "child" }]);
    expect(state.trace.find((t) => t.kind === "guard" && t.name === "emergency")?.detail).toMatchObject({
      source: "model",
      situation: "child",
      messageId: "u1",
    });
    const reply = state.messages.find((m) => m.id === "r1");
    expect(reply).toMatchObject({ content: ANSWER, status: "complete" });
    expect(reply?.toolCalls).toBeUndefined();
    expect(state.usage.totalTokens).toBe(70);
  });

  it("reaches the widget's completion as a card before any text, and the widget runs no tool", async () => {
    scriptedProvider(callsThenAnswers);
    const s = await openSession("medical-qa", {}, { siteKey: await site });
    const order: string[] = [];
    const complete = proxyCompletion({
      api: "http://parley.test",
      fetch: async (url, init) => (await call(new URL(url).pathname, init ?? {})).res,
      auth: () => ({ sessionId: s.sessionId, token: s.token }),
      onEvent: (e: SessionEvent) => order.push(`card:${(e.data as any).escalation.source}`),
    });
    const step = await complete({
      messages: CONVERSATION as any,
      replyId: "r-widget",
      onText: (text) => {
        if (text && !order.includes("text")) order.push("text");
      },
    });
    expect(order).toEqual(["card:model", "text"]);
    expect(step.toolCalls).toEqual([]);
    expect(step.text).toBe(ANSWER);
  });

  it("keeps the model's other calls for the widget, raises the card, and asks no second step", async () => {
    const provider = scriptedProvider(() => ({
      toolCalls: [
        escalateCall("sepsis", "fever and spreading red skin"),
        { name: "knowledge_search", arguments: '{"query":"cellulitis"}' },
      ],
    }));
    const s = await openSession("medical-qa", {}, { siteKey: await site });
    const { res, done } = await chat(s.token, { stream: true, messages: CONVERSATION, parley: {} });
    const chunks = parsed(await readSse(res));
    await done();
    expect(provider.chats()).toHaveLength(1);
    const escalation = chunks.find((c) => c.parley)?.parley.event.data.escalation;
    expect(escalation).toMatchObject({ source: "model", category: "sepsis" });
    const names = chunks.flatMap((c) => c.choices?.[0]?.delta?.tool_calls ?? []).map((d: any) => d.function?.name);
    expect(names.filter(Boolean)).toEqual(["knowledge_search"]);
    expect(chunks.find((c) => c.choices?.[0]?.finish_reason)?.choices[0].finish_reason).toBe("tool_calls");
  });

  it("pipes a reply that starts with text; its call raises the card at its end, ahead of the next step", async () => {
    const provider = scriptedProvider((body) =>
      body.messages.at(-1).role === "tool"
        ? { content: ANSWER }
        : { content: "That sounds serious.", toolCalls: [escalateCall("neuro", "cannot wake him")] },
    );
    const s = await openSession("medical-qa", {}, { siteKey: await site });
    const first = await chat(s.token, { stream: true, messages: CONVERSATION, parley: {} });
    const chunks = parsed(await readSse(first.res));
    await first.done();
    // The runtime's pipe: the text and the call as the provider sent them, no card yet, no second request.
    expect(textOf(chunks)).toBe("That sounds serious.");
    expect(chunks.some((c) => c.parley)).toBe(false);
    expect(provider.chats()).toHaveLength(1);
    const state = await stateOf(s.sessionId);
    expect(state.escalations).toMatchObject([{ messageId: "u1", source: "model", category: "neuro" }]);
    // The widget's next step (it answers a tool it does not know): headed by the card, the model told.
    const callId = chunks.flatMap((c) => c.choices?.[0]?.delta?.tool_calls ?? []).find((d: any) => d.id).id;
    const next = [
      ...CONVERSATION,
      {
        role: "assistant",
        content: "That sounds serious.",
        tool_calls: [{ id: callId, type: "function", function: { name: "escalate_emergency", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: callId, content: "Unknown tool escalate_emergency." },
    ];
    const second = await chat(s.token, { stream: true, messages: next, parley: {} });
    const after = parsed(await readSse(second.res));
    await second.done();
    expect(after[0].parley.event.data.escalation).toMatchObject({ source: "model", category: "neuro" });
    expect(textOf(after)).toBe(ANSWER);
    expect(provider.chats()[1].body.messages[0].content).toContain("SAFETY NOTICE");
  });

  it("answers invalid arguments with the reason; the model's corrected call raises the card", async () => {
    const provider = scriptedProvider((body) => {
      const last = body.messages.at(-1);
      if (last.role !== "tool") return { toolCalls: [escalateCall("cardiac", "crushing chest")] };
      if (last.content.includes("Invalid arguments"))
        return { toolCalls: [escalateCall("circulation", "crushing chest")] };
      return { content: ANSWER };
    });
    const s = await openSession("medical-qa", {}, { siteKey: await site });
    const { res, done } = await chat(s.token, { stream: true, messages: CONVERSATION, parley: {} });
    const chunks = parsed(await readSse(res));
    await done();
    expect(provider.chats()).toHaveLength(3);
    expect(provider.chats()[1].body.messages.at(-1).content).toContain("situation: must be one of");
    expect(chunks.filter((c) => c.parley).map((c) => c.parley.event.data.escalation.category)).toEqual(["circulation"]);
    expect(textOf(chunks)).toBe(ANSWER);
  });

  it("does not offer the tool once the rules raised the card; the rules' verdict stands", async () => {
    const provider = scriptedProvider(() => ({ content: "Hello" }));
    const s = await openSession("medical-qa", {}, { siteKey: await site });
    const messages = [{ id: "c1", role: "user", content: "I have crushing chest pain spreading to my left arm" }];
    const { res, done } = await chat(s.token, { stream: true, messages, parley: {} });
    const chunks = parsed(await readSse(res));
    await done();
    expect(chunks[0].parley.event.data.escalation).toMatchObject({ source: "rules" });
    expect(provider.chats()[0].body.tools?.map((t: any) => t.function.name) ?? []).not.toContain("escalate_emergency");
  });

  it("a later step of the turn is told of the model's card, and a second call raises nothing new", async () => {
    // Steps 0 and 2 call the tool; 1 and 3 answer its result.
    const provider = scriptedProvider((body, i) =>
      i % 2 ? { content: ANSWER } : callsThenAnswers({ messages: [{}] }),
    );
    const s = await openSession("medical-qa", {}, { siteKey: await site });
    await readSse((await chat(s.token, { stream: true, messages: CONVERSATION, parley: {} })).res);
    // The widget's next step of the same turn (a tool's result after the reply), and a model that calls again.
    const next = [
      ...CONVERSATION,
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "k1", type: "function", function: { name: "knowledge_search", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "k1", content: "{}" },
    ];
    const { res, done } = await chat(s.token, { stream: true, messages: next, parley: {} });
    const chunks = parsed(await readSse(res));
    await done();
    // The card heads this step too (the same escalation, as the rules' heads every step); no second one.
    expect(chunks.filter((c) => c.parley).map((c) => c.parley.event.id)).toEqual(["escalation:u1"]);
    expect(chunks[0].parley.event.data.escalation.source).toBe("model");
    expect(textOf(chunks)).toBe(ANSWER);
    expect(provider.chats()).toHaveLength(4);
    expect(provider.chats()[2].body.messages[0].content).toContain("SAFETY NOTICE");
    const state = await stateOf(s.sessionId);
    expect(state.escalations).toHaveLength(1);
    expect(state.trace.find((t) => t.name === "escalate_emergency")?.detail).toMatchObject({
      raised: false,
      decidedBy: "model",
    });
  });

  it("is not offered when the site turns the model layer off, nor to a text-ReAct agent", async () => {
    const guarded = { guards: { emergency: true, advice: false, compliance: false } };
    expect(offersEscalationTool({ ...guarded, strategy: "text-react" }, { safety: {} }, "chat", false)).toBe(false);
    expect(offersEscalationTool({ ...guarded, strategy: "native" }, { safety: {} }, "classify", false)).toBe(false);
    expect(offersEscalationTool({ ...guarded, strategy: "hybrid" }, { safety: {} }, "quick", false)).toBe(true);
    const provider = scriptedProvider(() => ({ content: "ok" }));
    const siteKey = await scriptedSite({ safety: { modelEscalation: false } });
    const s = await openSession("medical-qa", {}, { siteKey });
    await readSse((await chat(s.token, { stream: true, messages: CONVERSATION, parley: {} })).res);
    const body = provider.chats()[0].body;
    expect(body.tools.map((t: any) => t.function.name)).not.toContain("escalate_emergency");
    expect(body.messages[0].content).not.toContain("escalate_emergency");
  });
});

describe("the model's escalate_emergency call, not streamed", () => {
  it("puts the model's escalation in the completion and the answer of its next step", async () => {
    const provider = scriptedProvider(callsThenAnswers);
    const s = await openSession("medical-qa", {}, { siteKey: await site });
    const { res, done } = await chat(s.token, { messages: CONVERSATION, parley: { replyId: "j1" } });
    const json = (await res.json()) as any;
    await done();
    expect(provider.chats()).toHaveLength(2);
    expect(json.parley.event.data.escalation).toMatchObject({ source: "model", category: "child" });
    expect(json.choices[0].message.content).toBe(ANSWER);
    expect(json.choices[0].message.tool_calls).toBeUndefined();
    expect(json.usage.total_tokens).toBe(70);
    const state = await stateOf(s.sessionId);
    expect(state.escalations).toMatchObject([{ source: "model" }]);
  });

  it("refuses to run escalate_emergency for the browser: it is no edge tool", async () => {
    const s = await openSession("medical-qa", {}, { siteKey: await site });
    const { res } = await call("/v1/tools/escalate_emergency", {
      method: "POST",
      json: { arguments: { situation: "child", words: "x" } },
      headers: auth(s.token),
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).error.code).toBe("not_found");
  });
});
