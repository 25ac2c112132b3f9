import { describe, expect, it } from "vitest";
import OpenAI from "openai";
import { call, openSession } from "../helpers/worker/client.ts";

/** Any OpenAI client can talk to the proxy: the session token is its API key. */
function client(token: string) {
  return new OpenAI({
    apiKey: token,
    baseURL: "http://parley.test/v1",
    fetch: async (url: RequestInfo | URL, init?: RequestInit) => {
      const { res } = await call(new URL(String(url)).pathname, init ?? {});
      return res;
    },
  });
}

describe("OpenAI SDK compatibility", () => {
  it("streams a completion through the official client", async () => {
    const s = await openSession("sales-coach");
    const stream = await client(s.token).chat.completions.create({
      model: "gpt-4o-mini",
      stream: true,
      messages: [{ role: "user", content: "hello" }],
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text).toContain("Final Answer:");
  });

  it("returns a non-streamed completion with tool calls", async () => {
    const s = await openSession("medical-qa");
    const completion = await client(s.token).chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Can I take ibuprofen with paracetamol?" }],
    });
    const call0 = completion.choices[0].message.tool_calls?.[0];
    expect(call0?.type === "function" && call0.function.name).toBe("knowledge_search");
  });

  it("surfaces the proxy's errors as the SDK's typed errors", async () => {
    const s = await openSession("medical-qa");
    await expect(
      client(s.token).chat.completions.create({ model: "other-model", messages: [{ role: "user", content: "x" }] }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
