import { createServer, type Server } from "node:http";
import { performance } from "node:perf_hooks";

/**
 * bench:stream's provider: an OpenAI-compatible endpoint on 127.0.0.1 that streams a given markdown
 * reply one token per SSE event, `gapMs` apart, and records (wall clock, ms) when it wrote the last one.
 * The reply is chosen by the visitor's last message: `reply(lastUserText)`.
 */
export interface StreamProvider {
  url: string;
  /** Wall-clock time (performance.timeOrigin + now) the last token of the latest reply was written. */
  lastTokenAt(): number;
  /** Resolves once a reply whose last token was written after `since` is complete. */
  replyDone(since: number): Promise<number>;
  close(): Promise<void>;
}

const now = () => performance.timeOrigin + performance.now();

function chunk(delta: Record<string, unknown>, finish: string | null = null, usage?: Record<string, number>): string {
  const choices = [{ index: 0, delta, finish_reason: finish }];
  const event = { id: "chatcmpl-bench", object: "chat.completion.chunk", created: 0, model: "bench", choices, usage };
  return `data: ${JSON.stringify(event)}\n\n`;
}

export async function startStreamProvider(reply: (lastUser: string) => string[], gapMs = 1): Promise<StreamProvider> {
  let last = 0;
  const waiters: Array<{ since: number; resolve: (at: number) => void }> = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", async () => {
      type Body = { messages?: Array<{ role: string; content: unknown }>; stream?: boolean };
      const parsed = JSON.parse(body || "{}") as Body;
      const user = [...(parsed.messages ?? [])].reverse().find((m) => m.role === "user");
      const tokens = reply(typeof user?.content === "string" ? user.content : "");
      if (!parsed.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "chatcmpl-bench",
            object: "chat.completion",
            created: 0,
            model: "bench",
            choices: [{ index: 0, message: { role: "assistant", content: tokens.join("") }, finish_reason: "stop" }],
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(chunk({ role: "assistant", content: "" }));
      for (const token of tokens) {
        await new Promise((r) => setTimeout(r, gapMs));
        if (res.destroyed) return;
        res.write(chunk({ content: token }));
      }
      last = now();
      // A small usage, so 25 turns stay inside the session's token budget (the worker counts the provider's usage).
      const usage = { prompt_tokens: 1, completion_tokens: tokens.length, total_tokens: tokens.length + 1 };
      res.write(chunk({}, "stop", usage));
      res.end("data: [DONE]\n\n");
      for (const w of waiters.splice(0)) {
        if (w.since < last) w.resolve(last);
        else waiters.push(w);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    lastTokenAt: () => last,
    replyDone: (since) =>
      last > since ? Promise.resolve(last) : new Promise((resolve) => waiters.push({ since, resolve })),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
