import { afterEach, describe, expect, it } from "vitest";
import { demoChunks, demoCompletion, pickDemoStep, demoRequest, type DemoScript } from "../../worker/demo/index.ts";
import type { ChatChunk, ChatCompletion, ChatMessage } from "../../shared/chat/chat.ts";
import {
  GENERIC_REPLY,
  GENERIC_SCRIPT,
  startFakeUpstream,
  type FakeUpstream,
  type FakeUpstreamOptions,
} from "../helpers/fake-upstream.ts";

const KEY = "test-key";
const messages: ChatMessage[] = [{ role: "user", content: "Hello there" }];
let upstream: FakeUpstream | undefined;

async function start(opts: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  upstream = await startFakeUpstream({ apiKey: KEY, ...opts });
  return upstream;
}
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

function post(up: FakeUpstream, body: unknown, key: string | null = KEY): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  return fetch(`${up.url}/chat/completions`, { method: "POST", headers, body: JSON.stringify(body) });
}

/** Reads an SSE body, keeping each event's arrival time. */
async function readEvents(res: Response): Promise<Array<{ at: number; data: string }>> {
  const events: Array<{ at: number; data: string }> = [];
  const decoder = new TextDecoder();
  let buf = "";
  for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(part, { stream: true });
    let cut: number;
    while ((cut = buf.indexOf("\n\n")) >= 0) {
      const event = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      if (event.startsWith("data: ")) events.push({ at: performance.now(), data: event.slice(6) });
    }
  }
  return events;
}

const chunksOf = (events: Array<{ data: string }>): ChatChunk[] =>
  events.filter((e) => e.data !== "[DONE]").map((e) => JSON.parse(e.data) as ChatChunk);
const contentOf = (chunks: ChatChunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");

describe("fake upstream", () => {
  it("streams the same reply it returns unstreamed, as the demo model would", async () => {
    const up = await start();
    const whole = (await (await post(up, { model: "m", messages })).json()) as ChatCompletion;
    const res = await post(up, { model: "m", messages, stream: true });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = await readEvents(res);
    const chunks = chunksOf(events);

    expect(events.at(-1)?.data).toBe("[DONE]");
    expect(whole.choices[0].message.content).toBe(GENERIC_REPLY);
    expect(contentOf(chunks)).toBe(GENERIC_REPLY);
    expect(chunks.at(-1)?.usage).toEqual(whole.usage);
    // Same engine as the worker's demo model: identical chunks, ids aside.
    const step = pickDemoStep(GENERIC_SCRIPT, demoRequest({ messages }));
    expect(chunks).toEqual(demoChunks(step, { id: chunks[0].id!, model: "m", messages }));
    expect(whole).toEqual(demoCompletion(step, { id: whole.id, model: "m", messages }));
    expect(up.requests.map((r) => r.body?.stream)).toEqual([undefined, true]);
  });

  it("replays tool calls, and picks scripts by model", async () => {
    const up = await start();
    const toolMsgs: ChatMessage[] = [{ role: "user", content: "What is the weather?" }];
    const tools = [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }];
    const whole = (await (await post(up, { model: "m", messages: toolMsgs, tools })).json()) as ChatCompletion;
    const chunks = chunksOf(await readEvents(await post(up, { model: "m", messages: toolMsgs, tools, stream: true })));
    expect(whole.choices[0].finish_reason).toBe("tool_calls");
    expect(whole.choices[0].message.tool_calls?.[0].function).toEqual({
      name: "get_weather",
      arguments: '{"city":"Paris"}',
    });
    expect(chunks.some((c) => c.choices[0]?.finish_reason === "tool_calls")).toBe(true);
    // Without the tool offered, the engine answers in text, as a model would.
    const noTools = (await (await post(up, { model: "m", messages: toolMsgs })).json()) as ChatCompletion;
    expect(noTools.choices[0].message.content).toBe("It is sunny in Paris, 21 °C.");

    const echo: DemoScript = { agentId: "x", turns: [], fallback: { steps: [{ content: "special model" }] } };
    up.setScript(echo, "special");
    const special = (await (await post(up, { model: "special", messages })).json()) as ChatCompletion;
    expect(special.choices[0].message.content).toBe("special model");
  });

  it("checks the API key and the body like OpenAI", async () => {
    const up = await start();
    for (const key of [null, "wrong"]) {
      const res = await post(up, { model: "m", messages }, key);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_api_key");
    }
    expect((await post(up, { messages })).status).toBe(400);
    expect((await post(up, { model: "m", messages: [] })).status).toBe(400);
    expect(up.requests[0].headers.authorization).toBeUndefined();
    expect(up.requests[1].headers.authorization).toBe("Bearer wrong");
  });

  it("paces chunks: first token delay, then one write per chunk", async () => {
    const up = await start({ firstTokenMs: 40, chunkMs: 10 });
    const t0 = performance.now();
    const events = await readEvents(await post(up, { model: "m", messages, stream: true }));
    const sent = up.requests[0].chunks;
    expect(sent.length).toBe(events.length);
    // Chunks keep to an absolute schedule (a late timer is caught up, not added): none goes before its slot.
    sent.forEach((chunk, i) => expect(chunk.at - t0).toBeGreaterThanOrEqual(40 + i * 10 - 2));
    // Chunks are flushed as they are written, not held for the end: the first one reaches the client
    // before the last is sent. (How many arrive early depends on the machine's load, so only one is required.)
    expect(events[0].at).toBeLessThan(sent.at(-1)!.at);
  });

  it("spreads completionMs over the chunks", async () => {
    const up = await start({ completionMs: 100 });
    const t0 = performance.now();
    await readEvents(await post(up, { model: "m", messages, stream: true }));
    const sent = up.requests[0].chunks;
    // The last chunk keeps to its slot on the absolute schedule, however late the first one was.
    expect(sent.at(-1)!.at - t0).toBeGreaterThanOrEqual(98);
    expect(sent.at(-1)!.at - sent[0].at).toBeGreaterThan(0);
  });

  it("injects faults chosen per request", async () => {
    const up = await start({
      fault: ({ index }) =>
        (
          [
            "http500",
            "http429",
            "reset",
            { kind: "cut", afterChunks: 4 },
            { kind: "slow-first-byte", delayMs: 150 },
            "none",
          ] as const
        )[index],
    });
    const body = { model: "m", messages, stream: true };
    expect((await post(up, body)).status).toBe(500);
    const limited = await post(up, body);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    await expect(post(up, body)).rejects.toThrow();

    const cut = await post(up, body);
    expect(cut.status).toBe(200);
    await expect(readEvents(cut)).rejects.toThrow();
    expect(up.requests[3].chunks.length).toBe(4);

    const t0 = performance.now();
    const slow = await post(up, body);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(145);
    expect(contentOf(chunksOf(await readEvents(slow)))).toBe(GENERIC_REPLY);

    expect((await post(up, body)).status).toBe(200);
    expect(up.requests.map((r) => r.fault.kind)).toEqual([
      "http500",
      "http429",
      "reset",
      "cut",
      "slow-first-byte",
      "none",
    ]);
  });

  it("cuts a non-streamed reply halfway", async () => {
    const up = await start({ fault: "cut" });
    const res = await post(up, { model: "m", messages });
    await expect(res.text()).rejects.toThrow();
  });

  it("notices a client that goes away mid-stream", async () => {
    const up = await start({ chunkMs: 20 });
    await readEvents(await post(up, { model: "m", messages, stream: true }));
    const whole = up.requests[0].chunks.length;
    const ctl = new AbortController();
    const res = await fetch(`${up.url}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages, stream: true }),
      signal: ctl.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    ctl.abort();
    await new Promise((r) => setTimeout(r, 100));
    expect(up.requests[1].aborted).toBe(true);
    // It stopped writing: the reply was never sent whole (a late timer may let a few catch up first).
    expect(up.requests[1].chunks.length).toBeLessThan(whole);
  });

  it("holds a streamed reply at a gate until it is released, and says when it ended", async () => {
    let release!: () => void;
    const until = new Promise<void>((r) => (release = r));
    let held = 0;
    const ended: number[] = [];
    const up = await start({
      hold: () => ({ afterChunks: 3, until, held: () => held++ }),
      onEnded: (rec) => ended.push(rec.index),
    });
    const res = await post(up, { model: "m", messages, stream: true });
    const events = readEvents(res);
    await expect.poll(() => held).toBe(1);
    expect(up.requests[0].chunks.length).toBe(3);
    expect(ended).toEqual([]);
    release();
    expect(contentOf(chunksOf(await events))).toBe(GENERIC_REPLY);
    await expect.poll(() => ended).toEqual([0]);
  });

  it("picks a script per request when asked (scriptFor), at any path ending in /chat/completions", async () => {
    const script: DemoScript = { agentId: "x", turns: [], fallback: { steps: [{ content: "By path." }] } };
    const up = await start({ scriptFor: ({ path }) => (path.startsWith("/s/one/") ? script : undefined) });
    const ask = (path: string) =>
      fetch(`http://127.0.0.1:${up.port}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "m", messages }),
      }).then(async (r) => ((await r.json()) as ChatCompletion).choices[0].message.content);
    expect(await ask("/s/one/v1/chat/completions")).toBe("By path.");
    expect(await ask("/s/two/v1/chat/completions")).toBe(GENERIC_REPLY);
  });
});
