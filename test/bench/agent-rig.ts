import { performance } from "node:perf_hooks";
import { AgentConfig } from "../../shared/config/agent-config.ts";
import { ChatRequest, type ChatMessage, type ToolCall } from "../../shared/chat/chat.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { TOOLS } from "../../shared/tools/index.ts";
import type { KnowledgeHit } from "../../shared/tools/knowledge-search.ts";
import type { WebResult } from "../../shared/tools/web-search.ts";
import { proxyCompletion, type Complete } from "../../widget/agent/completion.ts";
import { executeToolCalls, type ExecutedCall } from "../../widget/agent/executor.ts";
import { upstreamBody } from "../../worker/llm/upstream-body.ts";
import { PRESET_AGENTS, PRESET_KNOWLEDGE, WEB_FIXTURES } from "../../worker/demo/index.ts";
import { TextIndex } from "../../worker/tools/text-index.ts";

/**
 * The agent bench's plumbing: completions that travel the widget's real `proxyCompletion`
 * (request, SSE reader, tool-call merging) to the fake upstream, with the body the worker would
 * send (`upstreamBody`: system prompt, tools, forced `classify_intent`), and edge tools that cost
 * a fixed time and then answer from the worker's own preset documents and web fixtures.
 */

export const AGENT_ID = "medical-qa";
export const agent = AgentConfig.parse(PRESET_AGENTS[AGENT_ID]);

/** One timed piece of a turn: a completion (by purpose) or an edge tool. Times are ms from the turn's start. */
export interface CallRecord {
  kind: "classify" | "chat" | "quick" | "summary" | "tool";
  name?: string;
  start: number;
  ms: number;
}

export interface RigOptions {
  /** Fake upstream base URL (`http://127.0.0.1:PORT/v1`). */
  upstreamUrl: string;
  edgeMs: number;
  /** The classified baseline: web search runs an LLM summary of its results (one more completion). */
  summarizeWebSearch?: boolean;
}

export interface Rig {
  complete: Complete;
  runEdge: (name: string, input: unknown, signal: AbortSignal) => Promise<unknown>;
  execute: (calls: ToolCall[]) => Promise<ExecutedCall[]>;
  records: CallRecord[];
  /** The `sources` each quick completion was given (what retrieval found). */
  quickSources: string[];
  newId: () => string;
}

// Not a real origin: the custom fetch below is the only thing that ever sees this URL.
const PROXY_API = "http://parley.invalid";
const knowledge = new TextIndex(PRESET_KNOWLEDGE.demo ?? []);
const web = new TextIndex(WEB_FIXTURES.map((r, i) => ({ ...r, id: String(i), text: r.snippet })));
const loopTools = Object.fromEntries(agent.tools.map((name) => [name, TOOLS[name]]));

function abortError(): Error {
  const err = new Error("The edge tool was stopped");
  err.name = "AbortError";
  return err;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Stands in for the worker between widget and provider: reads the widget's request as the chat
 * route does (ChatRequest), builds the provider body as the worker does, and names the script
 * the fake upstream replays instead of the agent's real model.
 */
function workerFetch(upstreamUrl: string) {
  return async (url: string, init?: RequestInit): Promise<Response> => {
    if (url !== PROXY_API + ROUTES.chat) throw new Error(`bench fetch: unexpected URL ${url}`);
    const req = ChatRequest.parse(JSON.parse(String(init?.body)));
    const body = { ...upstreamBody(req, agent), model: AGENT_ID };
    return fetch(`${upstreamUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: init?.signal,
    });
  };
}

/** A fresh rig per measured turn, so its records hold that turn's calls only. */
export function createRig(opts: RigOptions): Rig {
  const t0 = performance.now();
  const records: CallRecord[] = [];
  let seq = 0;
  const newId = () => `bench_${++seq}`;
  const proxied = proxyCompletion({
    api: PROXY_API,
    auth: () => ({ sessionId: "bench", token: "bench-token" }),
    fetch: workerFetch(opts.upstreamUrl),
  });

  const timed = async <T>(rec: Omit<CallRecord, "start" | "ms">, run: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await run();
    } finally {
      records.push({ ...rec, start: start - t0, ms: performance.now() - start });
    }
  };

  const quickSources: string[] = [];
  const complete: Complete = (req) => {
    if (req.purpose === "quick") quickSources.push(req.sources ?? "");
    return timed({ kind: req.purpose ?? "chat" }, () => proxied(req));
  };

  async function search(name: string, input: unknown, signal: AbortSignal): Promise<unknown> {
    const query = (input as { query?: string }).query ?? "";
    await sleep(opts.edgeMs, signal);
    if (name === "knowledge_search") {
      const hits: KnowledgeHit[] = knowledge
        .search(query, 3)
        .map(({ id, title, text, score }) => ({ id, title, text, score }));
      return { hits };
    }
    if (name === "web_search") {
      const results: WebResult[] = web.search(query, 5).map(({ title, url, snippet }) => ({ title, url, snippet }));
      if (!opts.summarizeWebSearch) return { results, source: "fixtures" };
      // The baseline's summary step: one more completion over the results before the agent sees them.
      const sources = results.map((r) => `[web] ${r.title} (${r.url}): ${r.snippet}`).join("\n");
      const messages: ChatMessage[] = [{ id: newId(), role: "user", content: query }];
      const summary = await timed({ kind: "summary" }, () =>
        proxied({ messages, replyId: newId(), purpose: "quick", sources, signal }),
      );
      return { summary: summary.text, source: "fixtures" };
    }
    throw new Error(`bench: no edge tool ${name}`);
  }

  const runEdge = (name: string, input: unknown, signal: AbortSignal) =>
    timed({ kind: "tool", name }, () => search(name, input, signal));
  const execute = (calls: ToolCall[]) =>
    executeToolCalls(calls, {
      tools: loopTools,
      clientImpls: {},
      runEdge: (name, input, ctx) => runEdge(name, input, ctx.signal),
    });
  return { complete, runEdge, execute, records, quickSources, newId };
}
