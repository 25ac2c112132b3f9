import { describe, expect, it } from "vitest";
import { createSseDecoder, readChatChunks } from "../../widget/transport/sse.ts";

const chunk = (content: string, finish: string | null = null) =>
  JSON.stringify({
    id: "c1",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta: { content }, finish_reason: finish }],
  });

function streamOf(parts: string[], opts: { hang?: boolean } = {}): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let i = 0;
  return new ReadableStream({
    pull(ctrl) {
      if (i < parts.length) ctrl.enqueue(enc.encode(parts[i++]));
      else if (!opts.hang) ctrl.close();
      else return new Promise(() => {}); // never answers, like a stalled upstream
    },
  });
}

async function collect(body: ReadableStream<Uint8Array>, signal?: AbortSignal): Promise<string[]> {
  const out: string[] = [];
  for await (const c of readChatChunks(body, signal)) out.push(c.choices[0]?.delta.content ?? "");
  return out;
}

describe("SSE decoding", () => {
  it("joins events split anywhere across reads", async () => {
    const text =
      `data: ${chunk("Hel")}\n\ndata: ${chunk("lo")}\r\n\r\n: ` +
      `keep-alive\n\ndata: ${chunk("!", "stop")}\n\ndata: [DONE]\n\n`;
    for (const size of [1, 3, 7, 50, text.length]) {
      const parts: string[] = [];
      for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
      expect(await collect(streamOf(parts))).toEqual(["Hel", "lo", "!"]);
    }
  });

  it("splits multi-byte characters safely", async () => {
    const bytes = new TextEncoder().encode(`data: ${chunk("湿疹")}\n\ndata: [DONE]\n\n`);
    const body = new ReadableStream<Uint8Array>({
      start(ctrl) {
        for (const b of bytes) ctrl.enqueue(new Uint8Array([b]));
        ctrl.close();
      },
    });
    expect(await collect(body)).toEqual(["湿疹"]);
  });

  it("stops at [DONE] and ignores what follows", async () => {
    expect(await collect(streamOf([`data: ${chunk("a")}\n\ndata: [DONE]\n\ndata: ${chunk("late")}\n\n`]))).toEqual([
      "a",
    ]);
  });

  it("delivers a last event without its blank line when the stream ends", async () => {
    expect(await collect(streamOf([`data: ${chunk("a")}\n\ndata: ${chunk("b")}`]))).toEqual(["a", "b"]);
  });

  it("joins multi-line data and skips other fields", () => {
    const got: string[] = [];
    const d = createSseDecoder((x) => got.push(x));
    d.feed("event: x\nid: 1\nretry: 5\ndata: a\ndata:b\n\n");
    expect(got).toEqual(["a\nb"]);
  });

  it("aborts a stalled stream with an AbortError", async () => {
    const ctrl = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const c of readChatChunks(streamOf([`data: ${chunk("a")}\n\n`], { hang: true }), ctrl.signal)) {
        seen.push(c.choices[0].delta.content ?? "");
        setTimeout(() => ctrl.abort(), 10);
      }
    })();
    await expect(run).rejects.toMatchObject({ name: "AbortError" });
    expect(seen).toEqual(["a"]);
  });
});
