/**
 * What a stubbed provider streams: its events, then [DONE], or broken after `failAt` events. The
 * body is a stream built in the isolate; a break in such a body loses what the relay's copy had
 * not yet read, so tests of a break mid-reply use the loopback provider (relay-network.test.ts).
 */
export function sseResponse(parts: unknown[], opts: { failAt?: number } = {}): Response {
  const enc = new TextEncoder();
  let i = 0;
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(c) {
        if (i === opts.failAt) return c.error(new TypeError("Network connection lost"));
        if (i < parts.length) return c.enqueue(enc.encode(`data: ${JSON.stringify(parts[i++])}\n\n`));
        c.enqueue(enc.encode("data: [DONE]\n\n"));
        c.close();
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );
}

export const delta = (content: string, finish: string | null = null) => ({
  choices: [{ index: 0, delta: { content }, finish_reason: finish }],
});
export const usage = (p: number, c: number) => ({
  choices: [],
  usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c },
});
