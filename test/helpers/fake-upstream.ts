import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { settled } from "./settled-handler.ts";
import type { AddressInfo, Socket } from "node:net";
import { performance } from "node:perf_hooks";
import type { ChatMessage } from "../../shared/chat/chat.ts";
import {
  demoChunks,
  demoCompletion,
  pickDemoStep,
  sseData,
  SSE_DONE,
  demoRequest,
  type DemoScript,
} from "../../worker/demo/index.ts";

/**
 * A local OpenAI-compatible provider for tests and benchmarks: `POST /v1/chat/completions`,
 * streamed and not, scripted with the worker's own demo engine (so a reply here is byte for byte
 * what the demo model would say), with configurable latency and per-request faults.
 * Listens on 127.0.0.1 only.
 */

export type FaultKind = "none" | "http500" | "http429" | "reset" | "cut" | "slow-first-byte";

/** A fault with its parameters; a bare kind uses the defaults below. */
export interface FaultSpec {
  kind: FaultKind;
  /** `cut`: chunks (SSE events) written before the socket is destroyed. Default 3. */
  afterChunks?: number;
  /** `slow-first-byte`: wait before the status line is sent. Default 10 000 ms. */
  delayMs?: number;
}

export interface FaultContext {
  /** 0-based index of this chat request among all chat requests the server received. */
  index: number;
  /** The request's path, e.g. `/v1/chat/completions` (a base URL's path can name a test's site). */
  path: string;
  body: ChatRequestBody;
  headers: IncomingHttpHeaders;
}

/** A streamed reply held before one of its chunks until the test opens the gate. */
export interface Hold {
  /** Chunks (SSE events) written before the reply waits. */
  afterChunks: number;
  /** Resolves when the test releases the reply. */
  until: Promise<void>;
  /** Called once the reply is waiting at the gate. */
  held(): void;
}

export type FaultOption = FaultKind | FaultSpec | ((ctx: FaultContext) => FaultKind | FaultSpec);

export interface Timing {
  /** Delay before the first chunk (stream) or before the JSON (non-stream). */
  firstTokenMs: number;
  /** Delay between consecutive chunks. */
  chunkMs: number;
  /**
   * Alternative to chunkMs: the time from the first chunk to the last, spread evenly over the
   * chunks. A non-streamed reply waits firstTokenMs + completionMs.
   */
  completionMs?: number;
}

export interface FakeUpstreamOptions extends Partial<Timing> {
  /** When set, requests must carry `Authorization: Bearer <apiKey>` (401 otherwise). */
  apiKey?: string;
  /** Scripts by request `model`; models not listed get `script`. */
  scripts?: Record<string, DemoScript>;
  /** The default script; GENERIC_SCRIPT when omitted. */
  script?: DemoScript;
  fault?: FaultOption;
  /**
   * `POST /v1/moderations` (OpenAI's shape): the categories flagged for an input, and how long to
   * wait before answering. Default: nothing flagged, at once.
   */
  moderation?: (input: string) => { flagged: string[]; delayMs?: number };
  /**
   * Answers a request with a recorded reply instead of the scripted engine (provider fixtures,
   * test/helpers/providers/); undefined lets the engine answer. With it, any POST path ending in
   * `/chat/completions` is served, so one fake can stand for providers at different base URLs.
   */
  replay?: (req: { path: string; headers: IncomingHttpHeaders; body: ChatRequestBody }) => ReplayReply | undefined;
  /**
   * The script for one request, over `scripts` and `script` when it returns one (e.g. by the path of
   * the base URL a test's site was given). With it, any POST path ending in `/chat/completions` is served.
   */
  scriptFor?: (ctx: FaultContext) => DemoScript | undefined;
  /** Holds a streamed reply with text part way (a gate the test opens) instead of pacing it by the clock. */
  hold?: (ctx: FaultContext) => Hold | undefined;
  /** Milliseconds between one request's streamed events, over the timing (e.g. a test's long reply). */
  pace?: (ctx: FaultContext) => number | undefined;
  /** Called when a chat request's response has ended, completely, cut or abandoned by the client. */
  onEnded?: (rec: RecordedRequest) => void;
}

/**
 * Breaks a streamed response off mid-body, as a provider that dies does: the connection closes
 * without the body's last chunk. A half-close (FIN after what was written), not a reset: a reset can
 * make the client's kernel drop bytes it had received but not yet read, so a loaded machine would
 * see none of what came before the break.
 */
function breakOff(req: IncomingMessage): void {
  req.socket.end();
  setTimeout(() => req.socket.destroy(), 1_000).unref();
}

/** A reply written as given: SSE blocks one write each (cut after `cutAfter`), or a body. */
export interface ReplayReply {
  status: number;
  headers: Record<string, string>;
  events?: string[];
  body?: string;
  cutAfter?: number;
}

/** The request body as the fake reads it (validated just enough to answer like OpenAI). */
export interface ChatRequestBody {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  [key: string]: unknown;
}

export interface RecordedChunk {
  /** performance.now() right after res.write() of this SSE event returned. */
  at: number;
  data: string;
}

export interface RecordedRequest {
  index: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined when it did not parse). */
  body: ChatRequestBody | undefined;
  receivedAt: number;
  /** Client port of the connection, to see how a client spreads requests over connections. */
  remotePort: number | undefined;
  fault: FaultSpec;
  status?: number;
  /** Every SSE event written, `data: [DONE]` included, in order. Empty for non-stream replies. */
  chunks: RecordedChunk[];
  /** performance.now() when the response ended, or when the fault destroyed the socket. */
  endedAt?: number;
  /** True when the client went away before the reply was complete. */
  aborted: boolean;
}

export interface FakeUpstream {
  /** Base URL, like an OpenAI base: `http://127.0.0.1:PORT/v1`. */
  url: string;
  port: number;
  /** Chat requests in arrival order (other paths are not recorded). */
  requests: RecordedRequest[];
  /** Sets the script for one model, or the default script when model is omitted. */
  setScript(script: DemoScript, model?: string): void;
  /** Changes timing or the fault option for requests that arrive from now on. */
  configure(opts: Partial<Timing> & { fault?: FaultOption }): void;
  close(): Promise<void>;
}

/** The default reply: one markdown paragraph of about 60 tokens (43 streamed pieces). */
export const GENERIC_REPLY =
  "Here is a **short answer** from the fake upstream. It streams one word at a time, " +
  "with `inline code`, a [link](https://example.com/docs) and *emphasis*, so a client can check " +
  "markdown rendering, streaming and usage accounting against a reply that never changes between runs.";

export const GENERIC_SCRIPT: DemoScript = {
  agentId: "generic",
  turns: [
    {
      // A tool round trip, for clients that want to see tool calls come back through the proxy
      // (only when the request offers get_weather: the engine skips steps calling absent tools).
      when: ["weather"],
      steps: [
        { toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] },
        { content: "It is sunny in Paris, 21 °C." },
      ],
    },
  ],
  fallback: { steps: [{ content: GENERIC_REPLY }] },
};

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits at a hold until the test releases it, or until the client has gone (nothing left to hold). */
async function waitAtGate(hold: Hold, res: ServerResponse): Promise<void> {
  if (res.destroyed) return;
  hold.held();
  await Promise.race([hold.until, new Promise<void>((r) => res.once("close", () => r()))]);
}

/** Waits until an absolute performance.now() deadline; scheduling against absolutes avoids drift. */
async function until(deadline: number): Promise<void> {
  // setTimeout may fire a little early against performance.now(); sleep again for the rest.
  for (let wait = deadline - performance.now(); wait > 0.5; wait = deadline - performance.now()) await sleep(wait);
}

function openAiError(
  res: ServerResponse,
  status: number,
  error: { message: string; type: string; code: string | null },
  headers: Record<string, string> = {},
) {
  const body = JSON.stringify({ error: { ...error, param: null } });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers });
  res.end(body);
}

function normalizeFault(f: FaultKind | FaultSpec): FaultSpec {
  return typeof f === "string" ? { kind: f } : f;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

export async function startFakeUpstream(opts: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const scripts = new Map<string, DemoScript>(Object.entries(opts.scripts ?? {}));
  let defaultScript = opts.script ?? GENERIC_SCRIPT;
  const timing: Timing = {
    firstTokenMs: opts.firstTokenMs ?? 0,
    chunkMs: opts.chunkMs ?? 0,
    completionMs: opts.completionMs,
  };
  let faultOption: FaultOption = opts.fault ?? "none";
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let seq = 0;

  const pickFault = (ctx: FaultContext): FaultSpec =>
    normalizeFault(typeof faultOption === "function" ? faultOption(ctx) : faultOption);

  async function handleChat(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAt = performance.now();
    const raw = await readBody(req);
    let body: ChatRequestBody | undefined;
    try {
      body = JSON.parse(raw) as ChatRequestBody;
    } catch {
      /* answered below */
    }
    const index = requests.length;
    const rec: RecordedRequest = {
      index,
      method: req.method ?? "",
      path: req.url ?? "",
      headers: req.headers,
      body,
      receivedAt,
      remotePort: req.socket.remotePort,
      fault: { kind: "none" },
      chunks: [],
      aborted: false,
    };
    requests.push(rec);
    res.on("close", () => {
      rec.endedAt ??= performance.now();
      if (!res.writableFinished) rec.aborted = true;
      opts.onEnded?.(rec);
    });

    // The same checks, in the same order, as OpenAI: key first, then the body.
    if (opts.apiKey !== undefined && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      rec.status = 401;
      return openAiError(res, 401, {
        message: "Incorrect API key provided. (fake upstream)",
        type: "invalid_request_error",
        code: "invalid_api_key",
      });
    }
    if (!body || typeof body !== "object") {
      rec.status = 400;
      return openAiError(res, 400, {
        message: "We could not parse the JSON body of your request.",
        type: "invalid_request_error",
        code: null,
      });
    }
    if (typeof body.model !== "string" || body.model === "") {
      rec.status = 400;
      return openAiError(res, 400, {
        message: "you must provide a model parameter",
        type: "invalid_request_error",
        code: null,
      });
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      rec.status = 400;
      return openAiError(res, 400, {
        message: "'messages' must be a non-empty array",
        type: "invalid_request_error",
        code: null,
      });
    }

    const replayed = opts.replay?.({ path: req.url ?? "", headers: req.headers, body });
    const ctx: FaultContext = { index, path: req.url ?? "", body, headers: req.headers };
    if (replayed) return replay(replayed, rec, req, res, opts.hold?.(ctx), opts.pace?.(ctx) ?? timing.chunkMs);

    const fault = pickFault(ctx);
    rec.fault = fault;
    switch (fault.kind) {
      case "reset":
        // Not one byte of response: the client sees a reset / "socket hang up".
        rec.endedAt = performance.now();
        req.socket.destroy();
        return;
      case "http500":
        rec.status = 500;
        return openAiError(res, 500, {
          message: "The server had an error while processing your request. (fake upstream)",
          type: "server_error",
          code: null,
        });
      case "http429":
        rec.status = 429;
        return openAiError(
          res,
          429,
          {
            message: "Rate limit reached for requests. (fake upstream)",
            type: "requests",
            code: "rate_limit_exceeded",
          },
          { "retry-after": "1" },
        );
      case "slow-first-byte":
        await sleep(fault.delayMs ?? 10_000);
        if (res.destroyed) return;
        break;
    }

    const model = body.model;
    const step = pickDemoStep(opts.scriptFor?.(ctx) ?? scripts.get(model) ?? defaultScript, demoRequest(body));
    const id = `chatcmpl-fake-${++seq}`;
    const t: Timing = { ...timing };
    const start = performance.now();

    if (!body.stream) {
      const json = JSON.stringify(demoCompletion(step, { id, model, messages: body.messages }));
      await until(start + t.firstTokenMs + (t.completionMs ?? 0));
      if (res.destroyed) return;
      rec.status = 200;
      if (fault.kind === "cut") {
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
        res.write(json.slice(0, Math.floor(json.length / 2)));
        rec.endedAt = performance.now();
        setImmediate(() => req.socket.destroy());
        return;
      }
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
      res.end(json);
      return;
    }

    const events = demoChunks(step, { id, model, messages: body.messages }).map(sseData);
    events.push(SSE_DONE);
    rec.status = 200;
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    res.flushHeaders();
    // Spread completionMs over the gaps between chunks; otherwise chunkMs per gap.
    const gap =
      opts.pace?.(ctx) ?? (t.completionMs !== undefined ? t.completionMs / Math.max(1, events.length - 1) : t.chunkMs);
    const cutAfter = fault.kind === "cut" ? (fault.afterChunks ?? 3) : Infinity;
    // Held part way through its text: a step that only calls tools goes through (the turn's text comes later).
    const hold = step.content ? opts.hold?.(ctx) : undefined;
    for (let i = 0; i < events.length; i++) {
      await until(start + t.firstTokenMs + i * gap);
      if (i === hold?.afterChunks) await waitAtGate(hold, res);
      if (res.destroyed) return;
      if (i >= cutAfter) {
        rec.endedAt = performance.now();
        breakOff(req);
        return;
      }
      // One write per event, never batched: each chunk leaves as soon as it is "generated".
      res.write(events[i]);
      rec.chunks.push({ at: performance.now(), data: events[i] });
    }
    res.end();
  }

  async function replay(
    r: ReplayReply,
    rec: RecordedRequest,
    req: IncomingMessage,
    res: ServerResponse,
    hold: Hold | undefined,
    gapMs: number,
  ) {
    rec.status = r.status;
    res.writeHead(r.status, r.headers);
    if (r.body !== undefined || !r.events) {
      res.end(r.body ?? "");
      return;
    }
    res.flushHeaders();
    for (let i = 0; i < r.events.length; i++) {
      if (i === hold?.afterChunks) await waitAtGate(hold, res);
      if (res.destroyed) return;
      if (r.cutAfter !== undefined && i >= r.cutAfter) {
        rec.endedAt = performance.now();
        breakOff(req);
        return;
      }
      res.write(r.events[i]);
      rec.chunks.push({ at: performance.now(), data: r.events[i] });
      await sleep(gapMs);
    }
    res.end();
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    const anyPath = !!opts.replay || !!opts.scriptFor;
    const chat = path === "/v1/chat/completions" || (anyPath && path.endsWith("/chat/completions"));
    if (req.method === "POST" && chat) {
      handleChat(req, res).catch((err: unknown) => {
        if (!res.headersSent) openAiError(res, 500, { message: String(err), type: "server_error", code: null });
        else res.destroy();
      });
      return;
    }
    if (req.method === "POST" && path === "/v1/moderations") {
      settled((rq, rs) => moderate(rq, rs, opts.moderation))(req, res);
      return;
    }
    if (req.method === "GET" && path === "/v1/models") {
      const data = [...new Set(["fake-model", ...scripts.keys()])].map((id) => ({
        id,
        object: "model",
        owned_by: "fake-upstream",
      }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data }));
      return;
    }
    req.resume();
    openAiError(res, 404, {
      message: `Unknown request URL: ${req.method} ${req.url}. (fake upstream)`,
      type: "invalid_request_error",
      code: "unknown_url",
    });
  });
  server.on("connection", (socket) => {
    // Nagle off: a small SSE event must not wait for the previous one's ACK.
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    setScript(script, model) {
      if (model === undefined) defaultScript = script;
      else scripts.set(model, script);
    },
    configure(next) {
      if (next.firstTokenMs !== undefined) timing.firstTokenMs = next.firstTokenMs;
      if (next.chunkMs !== undefined) {
        timing.chunkMs = next.chunkMs;
        timing.completionMs = undefined;
      }
      if ("completionMs" in next) timing.completionMs = next.completionMs;
      if (next.fault !== undefined) faultOption = next.fault;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const MODERATION_CATEGORIES = [
  "harassment",
  "hate",
  "self-harm",
  "self-harm/intent",
  "self-harm/instructions",
  "sexual",
  "violence",
];

async function moderate(
  req: IncomingMessage,
  res: ServerResponse,
  answer: FakeUpstreamOptions["moderation"],
): Promise<void> {
  let raw = "";
  for await (const chunk of req) raw += String(chunk);
  let input = "";
  try {
    input = String((JSON.parse(raw) as { input?: unknown }).input ?? "");
  } catch {
    return openAiError(res, 400, { message: "body is not JSON", type: "invalid_request_error", code: null });
  }
  const { flagged, delayMs = 0 } = answer?.(input) ?? { flagged: [] };
  if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
  if (res.destroyed) return;
  const categories = Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, flagged.includes(c)]));
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id: "modr-fake",
      model: "omni-moderation-latest",
      results: [{ flagged: flagged.length > 0, categories }],
    }),
  );
}
