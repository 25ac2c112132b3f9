import { afterEach, describe, expect, it, vi } from "vitest";
import OpenAI from "openai";
import { generateText, streamText } from "ai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { auth, call, openSession, readSse } from "../helpers/worker/client.ts";
import { escalateCall, scriptedProvider } from "../helpers/worker/scripted-provider.ts";
import { scriptedSite } from "../helpers/worker/sites.ts";

/**
 * Every client sees the escalation, not only Parley's widget: a host app that talks to the proxy
 * with the official `openai` SDK or the Vercel AI SDK (and its own UI) reads the card as the
 * reply's first words, in the visitor's language; the widget, which reads Parley's own field,
 * gets it once, as its card.
 */
afterEach(() => vi.restoreAllMocks());

/** The sessions' site: a copy of the demo site whose provider is the scripted one. */
const site = scriptedSite();

const CHEST = "I have crushing chest pain spreading to my left arm and I am sweating";
const STROKE_ZH = "我爸突然嘴歪了，说话也含糊不清";
const MODEL = "gpt-4o-mini";

/** The worker in workerd, behind the clients' own fetch. */
const proxyFetch = async (url: RequestInfo | URL, init?: RequestInit) => {
  const headers = new Headers(init?.headers);
  const { res } = await call(new URL(String(url)).pathname, { ...init, headers });
  return res;
};

const openai = (token: string) => new OpenAI({ apiKey: token, baseURL: "http://parley.test/v1", fetch: proxyFetch });
const aiSdk = (token: string) =>
  createOpenAICompatible({ name: "parley", baseURL: "http://parley.test/v1", apiKey: token, fetch: proxyFetch })(MODEL);

/** The case that could hide the card from other clients: the model's first step calls a tool and writes nothing. */
const toolFirst = () =>
  scriptedProvider(() => ({ toolCalls: [{ name: "knowledge_search", arguments: '{"query":"chest pain"}' }] }));

async function openaiStreamText(token: string, content: string): Promise<string> {
  const stream = await openai(token).chat.completions.create({
    model: MODEL,
    stream: true,
    messages: [{ role: "user", content }],
  });
  let text = "";
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
  return text;
}

describe("an outside client through the proxy, the rules' escalation", () => {
  it("the openai SDK, streaming, reads the card as the first text even when the model only calls a tool", async () => {
    toolFirst();
    const s = await openSession("medical-qa", {}, { siteKey: await site });
    const text = await openaiStreamText(s.token, CHEST);
    expect(text).toMatch(/^\*\*This may be an emergency\*\*/);
    expect(text).toContain("Call the emergency number now.");
    expect(text).toContain("911");
  });

  it("the openai SDK, not streamed, finds it in message.content", async () => {
    toolFirst();
    const s = await openSession("medical-qa", {}, { siteKey: await site });
    const completion = await openai(s.token).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: CHEST }],
    });
    expect(completion.choices[0].message.content).toMatch(/^\*\*This may be an emergency\*\*[\s\S]*911/);
    expect(completion.choices[0].message.tool_calls?.[0]).toMatchObject({ function: { name: "knowledge_search" } });
  });

  it("the AI SDK's streamText and generateText show it, in Chinese for a Chinese message", async () => {
    toolFirst();
    const s = await openSession("medical-qa", {}, { siteKey: await site });
    const streamed = streamText({ model: aiSdk(s.token), prompt: CHEST });
    const text = await streamed.text;
    expect(text).toMatch(/^\*\*This may be an emergency\*\*/);
    expect(text).toContain("911");
    expect(await streamed.finishReason).toBe("tool-calls");

    const zh = await generateText({ model: aiSdk(s.token), prompt: STROKE_ZH });
    expect(zh.text).toMatch(/^\*\*这可能是紧急情况\*\*/);
    expect(zh.text).toContain("请立即拨打急救电话。");
    expect(zh.text).toContain("急救电话：120");
  });
});

describe("an outside client through the proxy, the model's escalation", () => {
  const ANSWER = "Please call an ambulance now.";
  const modelEscalates = () =>
    scriptedProvider((body) =>
      body.messages.at(-1).role === "tool"
        ? { content: ANSWER }
        : { toolCalls: [escalateCall("child", "my baby is floppy and will not wake")] },
    );
  const quiet = "She is like that since this morning. What should I do?";

  it("both SDKs read the card, then the model's answer", async () => {
    modelEscalates();
    // A session each: each client's request raises the card itself.
    const token = async () => (await openSession("medical-qa", {}, { siteKey: await site })).token;
    const viaOpenai = await openaiStreamText(await token(), quiet);
    expect(viaOpenai).toMatch(/^\*\*This may be an emergency\*\*[\s\S]*911[\s\S]*Please call an ambulance now\.$/);
    expect(viaOpenai).toContain("Stay with the child");

    const viaAi = await streamText({ model: aiSdk(await token()), prompt: quiet }).text;
    expect(viaAi).toMatch(/^\*\*This may be an emergency\*\*[\s\S]*Please call an ambulance now\.$/);
    const generated = await generateText({ model: aiSdk(await token()), prompt: quiet });
    expect(generated.text).toMatch(/^\*\*This may be an emergency\*\*[\s\S]*Please call an ambulance now\.$/);
    expect(generated.finishReason).toBe("stop");
  });
});

describe("Parley's widget (its requests carry `parley`)", () => {
  it("gets the card once, in Parley's field, and no copy of it in the text", async () => {
    scriptedProvider(() => ({ content: "Call now." }));
    const s = await openSession("medical-qa", {}, { siteKey: await site });
    const json = { stream: true, messages: [{ role: "user", content: CHEST }], parley: { replyId: "w1" } };
    const { res, done } = await call("/v1/chat/completions", { method: "POST", json, headers: auth(s.token) });
    const chunks = (await readSse(res)).filter((e) => e !== "[DONE]").map((e) => JSON.parse(e));
    await done();
    expect(chunks.filter((c) => c.parley)).toHaveLength(1);
    expect(chunks.map((c) => c.choices?.[0]?.delta?.content ?? "").join("")).toBe("Call now.");
  });
});
