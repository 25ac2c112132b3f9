import { createServer, type Server } from "node:http";
import type { TestProject } from "vitest/node";
import { startFakeUpstream, type FakeUpstream, type ReplayReply } from "../fake-upstream.ts";
import { buildCase, CASES, PROVIDERS } from "../providers/index.ts";
import { failureBody } from "../provider-failures.ts";
import { HELD, HELD_AFTER_CHUNKS } from "./held-reply.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The fake provider on a real loopback socket, for the worker's network path. */
    upstreamUrl: string;
    /**
     * The same, one chunk every 50 ms; a user message containing `[held]` is held part way until the
     * worker ends the request (held-reply.ts).
     */
    slowUpstreamUrl: string;
    /** GET: what the fake provider saw, `[{ text, status, aborted, chunks }]` (last user message text). */
    upstreamLogUrl: string;
    /**
     * Provider fixtures replayed: base URL `${providerUpstreamUrl}/p/<provider id>/<case index>/v1`;
     * `/fail/<status>/v1` answers that provider error (provider-failures.ts); any other prefix the scripted reply.
     */
    providerUpstreamUrl: string;
    /** GET: what the provider fake saw, `[{ path, auth, apiKey, body }]`. */
    providerLogUrl: string;
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
    // A classifier that reads a warning sign the rules do not (arrangements made), and one that hangs.
    moderation: (input) => ({
      flagged: /everything is arranged now/i.test(input) ? ["self-harm", "self-harm/intent"] : [],
      delayMs: input.includes("[slow moderation]") ? 3000 : 0,
    }),
  });
  const slow = startFakeUpstream({
    apiKey: "sk-test-secret",
    chunkMs: 50,
    hold: ({ body }) =>
      lastText(body.messages).includes(HELD)
        ? { afterChunks: HELD_AFTER_CHUNKS, until: new Promise<void>(() => {}), held: () => {} }
        : undefined,
  });
  const log: Server = createServer((_req, res) => {
    const all = [...(upstream?.requests ?? []), ...(slowUpstream?.requests ?? [])];
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify(
        all.map((r) => ({
          text: lastText(r.body?.messages ?? []),
          status: r.status,
          aborted: r.aborted,
          chunks: r.chunks.length,
        })),
      ),
    );
  });
  let slowUpstream: FakeUpstream | undefined = await slow;
  let providers: FakeUpstream | undefined = await startFakeUpstream({ replay: replayFixture });
  const providerLog: Server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify(
        (providers?.requests ?? []).map((r) => ({
          path: r.path,
          auth: r.headers.authorization ?? null,
          apiKey: r.headers["api-key"] ?? null,
          body: r.body,
        })),
      ),
    );
  });
  await new Promise<void>((r) => providerLog.listen(0, "127.0.0.1", r));
  await new Promise<void>((r) => log.listen(0, "127.0.0.1", r));
  const { port } = log.address() as { port: number };
  project.provide("upstreamUrl", upstream.url);
  project.provide("slowUpstreamUrl", slowUpstream.url);
  project.provide("upstreamLogUrl", `http://127.0.0.1:${port}/`);
  project.provide("providerUpstreamUrl", `http://127.0.0.1:${providers.port}`);
  project.provide("providerLogUrl", `http://127.0.0.1:${(providerLog.address() as { port: number }).port}/`);
  return async () => {
    await upstream?.close();
    await slowUpstream?.close();
    await providers?.close();
    upstream = slowUpstream = providers = undefined;
    providerLog.closeAllConnections();
    await new Promise((r) => providerLog.close(r));
    log.closeAllConnections();
    await new Promise((r) => log.close(r));
  };
}

function lastText(messages: ReadonlyArray<{ role: string; content?: unknown }>): string {
  const last = messages.filter((m) => m.role === "user").at(-1);
  return typeof last?.content === "string" ? last.content : "";
}

/**
 * `/p/<provider>/<case index>/…`: that provider's fixture for that case. DeepSeek's thinking mode is
 * played as its documentation describes it: a request whose assistant tool-call turn lacks its
 * `reasoning_content` gets its 400; case `loop` thinks and calls a tool, then answers its result.
 */
type Replayed = {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: { messages: Array<Record<string, unknown>> };
};

function replayFixture({ path, headers, body }: Replayed): ReplayReply | undefined {
  const [, p, id, which] = path.split("/");
  // `/fail/<status>/…`: a provider's error answer that quotes the owner's account (provider-failures.ts).
  const failure = p === "fail" ? failureBody(id === "echo" ? id : Number(id), headers.authorization) : undefined;
  if (failure) return { status: Number(id) || 401, headers: { "content-type": "application/json" }, body: failure };
  const style = PROVIDERS.find((s) => s.id === id);
  if (p !== "p" || !style) return undefined;
  if (style.profile.reasoningReplay === "tool-turns") {
    const bare = (m: Record<string, unknown>) =>
      m.role === "assistant" && Array.isArray(m.tool_calls) && !m.reasoning_content;
    const at = body.messages.findIndex(bare);
    if (at >= 0) {
      const message = `Missing \`reasoning_content\` field in the assistant message at message index ${at}.`;
      const error = { message, type: "invalid_request_error", param: null, code: "invalid_request_error" };
      return { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ error }) };
    }
  }
  if (which === "loop") {
    return buildCase(style, body.messages.at(-1)?.role === "tool" ? "reasoning" : "thinking tool call");
  }
  const c = CASES[Number(which)];
  return c ? buildCase(style, c) : undefined;
}
