import { afterEach, describe, expect, it } from "vitest";
import type { ChatCompletion } from "../../shared/chat/chat.ts";
import type { DemoScript } from "../../worker/demo/index.ts";
import { startE2eProvider, type E2eProvider } from "../helpers/e2e-provider.ts";
import { ANSWER } from "../helpers/providers/index.ts";

const KEY = "sk-e2e";
let provider: E2eProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

function ask(p: E2eProvider, site: string, text: string, stream = true) {
  return fetch(`${p.baseUrlFor(site)}/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "m", stream, messages: [{ role: "user", content: text }] }),
  });
}

const SCRIPT: DemoScript = {
  agentId: "x",
  turns: [],
  fallback: { steps: [{ content: "One two three four five six." }] },
};

describe("the end-to-end run's provider", () => {
  it("answers each site from its own script and keeps each site's requests apart", async () => {
    provider = await startE2eProvider(KEY);
    provider.setScript("a", SCRIPT);
    const reply = (await (await ask(provider, "a", "hi", false)).json()) as ChatCompletion;
    expect(reply.choices[0].message.content).toBe(SCRIPT.fallback.steps[0].content);
    await (await ask(provider, "b", "hello", false)).json();
    expect(provider.requests("a").map((r) => r.text)).toEqual(["hi"]);
    expect(provider.requests("b")).toMatchObject([{ text: "hello", authorization: `Bearer ${KEY}` }]);
  });

  it("holds a reply at the gate its marker names until the test releases it", async () => {
    provider = await startE2eProvider(KEY);
    provider.setScript("a", SCRIPT);
    const res = await ask(provider, "a", "hi [hold:g1@3]");
    const body = res.text();
    const gate = provider.gate("g1");
    await gate.held.promise;
    expect(provider.requests("a")[0].chunks).toBe(3);
    gate.release();
    expect(await body).toContain("six.");
    expect(await gate.ended.promise).toMatchObject({ aborted: false, status: 200 });
  });

  it("says a held reply whose client went away was aborted", async () => {
    provider = await startE2eProvider(KEY);
    const ctl = new AbortController();
    const res = await fetch(`${provider.baseUrlFor("a")}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "hi [hold:g2]" }] }),
      signal: ctl.signal,
    });
    await provider.gate("g2").held.promise;
    await res.body!.getReader().read();
    ctl.abort();
    expect(await provider.gate("g2").ended.promise).toMatchObject({ aborted: true });
  });

  it("cuts a stream where its marker says, once when asked, and replays a provider's recorded reply", async () => {
    provider = await startE2eProvider(KEY);
    await expect((await ask(provider, "a", "hi [cut once:2]")).text()).rejects.toThrow();
    expect(await (await ask(provider, "a", "hi [cut once:2]")).text()).toContain("[DONE]");
    await expect((await ask(provider, "a", "hi [cut:2]")).text()).rejects.toThrow();
    await expect((await ask(provider, "a", "hi [cut:2]")).text()).rejects.toThrow();
    const replayed = await (await ask(provider, "a", "rash [replay:deepseek-reasoner:reasoning]")).text();
    expect(replayed).toContain('"reasoning_content"');
    expect(replayed).toContain(JSON.stringify(ANSWER.split(" ").at(-1)));
  });
});
