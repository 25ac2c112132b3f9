import { createServer, type Server } from "node:http";
import type { TestProject } from "vitest/node";
import { startFakeUpstream, type FakeUpstream } from "../fake-upstream.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The fake provider on a real loopback socket, for the worker's network path. */
    upstreamUrl: string;
    /** The same, one chunk every 50 ms. */
    slowUpstreamUrl: string;
    /** GET: what the fake provider saw, `[{ text, status, aborted, chunks }]` (last user message text). */
    upstreamLogUrl: string;
  }
}

/**
 * Worker tests mostly fake `fetch` with bodies built in the isolate. This fake provider answers
 * over a real socket, as a production provider does, for what depends on a network body (a break
 * mid-reply keeps what had arrived; a visitor who leaves ends the request). A user message
 * containing `[cut]` gets a stream broken after 3 chunks, `[cut once]` only the first time that
 * text is sent; the slow provider leaves a client time to go away halfway. Its moderation route
 * stands in for the emergency guard's classifier.
 */
export default async function setup(project: TestProject) {
  const cutBefore = new Set<string>();
  let upstream: FakeUpstream | undefined = await startFakeUpstream({
    apiKey: "sk-test-secret",
    chunkMs: 1,
    fault: ({ body }) => {
      const text = lastText(body.messages);
      const cut = text.includes("[cut]") || (text.includes("[cut once]") && !cutBefore.has(text));
      cutBefore.add(text);
      return cut ? { kind: "cut", afterChunks: 3 } : "none";
    },
    // A classifier that reads a warning sign the rules do not (giving things away), and one that hangs.
    moderation: (input) => ({
      flagged: /gave away all my things/i.test(input) ? ["self-harm", "self-harm/intent"] : [],
      delayMs: input.includes("[slow moderation]") ? 3000 : 0,
    }),
  });
  const slow = startFakeUpstream({ apiKey: "sk-test-secret", chunkMs: 50 });
  const log: Server = createServer((_req, res) => {
    const all = [...(upstream?.requests ?? []), ...(slowUpstream?.requests ?? [])];
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(all.map((r) => ({ text: lastText(r.body?.messages ?? []), status: r.status, aborted: r.aborted, chunks: r.chunks.length }))));
  });
  let slowUpstream: FakeUpstream | undefined = await slow;
  await new Promise<void>((r) => log.listen(0, "127.0.0.1", r));
  const { port } = log.address() as { port: number };
  project.provide("upstreamUrl", upstream.url);
  project.provide("slowUpstreamUrl", slowUpstream.url);
  project.provide("upstreamLogUrl", `http://127.0.0.1:${port}/`);
  return async () => {
    await upstream?.close();
    await slowUpstream?.close();
    upstream = slowUpstream = undefined;
    log.closeAllConnections();
    await new Promise((r) => log.close(r));
  };
}

function lastText(messages: ReadonlyArray<{ role: string; content?: unknown }>): string {
  const last = messages.filter((m) => m.role === "user").at(-1);
  return typeof last?.content === "string" ? last.content : "";
}
