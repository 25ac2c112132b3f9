import type { RouterConfig } from "../../shared/config/agent-config.ts";
import type { ChatMessage } from "../../shared/chat/chat.ts";
import { contentText } from "../../shared/chat/message-content.ts";
import { parseToolInput, type CheckedTool } from "../../shared/tools/tool.ts";
import type { Complete } from "./completion.ts";
import type { LoopResult, StepView } from "./loop.ts";

export interface RouteDecision {
  route: "quick" | "loop";
  intent: string;
  confidence: number;
}

export interface RouteOptions {
  router: RouterConfig;
  /** The conversation so far, the visitor's new message last. */
  history: ChatMessage[];
  complete: Complete;
  runEdge: (name: string, input: unknown, signal: AbortSignal) => Promise<unknown>;
  /** shared/tools/classify-intent.ts, passed in so that zod loads with the other tool schemas, lazily. */
  classifier: CheckedTool;
  /** Start retrieval while the intent is being decided (default), or only after (the quick path as first designed). */
  speculative?: boolean;
  signal?: AbortSignal;
  newId: () => string;
  onStep?: (view: StepView) => void;
  onDecision?: (d: RouteDecision) => void;
  onMessage?: (m: ChatMessage) => void;
  /** The agent loop, for complex, emergency or unclear intents. */
  runLoop: () => Promise<LoopResult>;
}

/**
 * The medical Q&A desk's quick path, a hybrid router, improved: the quick path's retrieval starts at
 * once, in parallel with the classification, so a quick answer waits for max(classification,
 * retrieval) + one completion instead of their sum. A decision that fails or is unsure takes the loop
 * (the conservative default).
 */
export async function routeTurn(opts: RouteOptions): Promise<LoopResult & { decision: RouteDecision }> {
  const speculative = opts.speculative ?? true;
  const retrievalAbort = new AbortController();
  const cancelRetrieval = () => retrievalAbort.abort();
  opts.signal?.addEventListener("abort", cancelRetrieval, { once: true });
  const query = lastUserText(opts.history);
  const retrieve = () => retrieveSources(opts, query, retrievalAbort.signal);
  const early = speculative ? retrieve() : null;
  try {
    const decision = await classify(opts);
    opts.onDecision?.(decision);
    if (decision.route === "loop") {
      cancelRetrieval();
      return { ...(await opts.runLoop()), decision };
    }
    const sources = await (early ?? retrieve());
    const view: StepView = { id: opts.newId(), answer: "", reasoning: "", toolCalls: [], results: [] };
    try {
      const step = await opts.complete({
        messages: opts.history,
        replyId: view.id,
        purpose: "quick",
        sources,
        signal: opts.signal,
        onText: (text, _reasoning, ended) => {
          view.answer = text;
          view.ended ||= ended;
          opts.onStep?.({ ...view });
        },
      });
      view.answer = step.text;
      opts.onStep?.({ ...view });
      const answer: ChatMessage = { id: view.id, role: "assistant", content: step.text };
      opts.onMessage?.(answer);
      return { end: "complete", added: [answer], steps: [view], decision };
    } catch (err) {
      if ((err as Error)?.name === "AbortError" || opts.signal?.aborted) {
        return {
          end: "aborted",
          added: view.answer ? [{ id: view.id, role: "assistant", content: view.answer }] : [],
          steps: [view],
          decision,
        };
      }
      throw err;
    }
  } finally {
    opts.signal?.removeEventListener("abort", cancelRetrieval);
  }
}

export async function classify(
  opts: Pick<RouteOptions, "router" | "history" | "complete" | "signal" | "newId" | "classifier">,
): Promise<RouteDecision> {
  const unsure: RouteDecision = { route: "loop", intent: "unclear", confidence: 0 };
  try {
    const step = await opts.complete({
      messages: opts.history,
      replyId: opts.newId(),
      purpose: "classify",
      signal: opts.signal,
    });
    const call = step.toolCalls.find((c) => c.function.name === opts.classifier.name);
    const parsed = call ? parseToolInput(opts.classifier, call.function.arguments) : null;
    if (!parsed?.ok) return unsure;
    const { intent, confidence } = parsed.value as { intent: string; confidence: number };
    const quick = opts.router.quickIntents.includes(intent) && confidence >= opts.router.minConfidence;
    return { route: quick ? "quick" : "loop", intent, confidence };
  } catch (err) {
    if ((err as Error)?.name === "AbortError") throw err;
    return unsure;
  }
}

/** Runs the quick path's tools in parallel; a failed tool leaves a note instead of failing the answer. */
async function retrieveSources(opts: RouteOptions, query: string, signal: AbortSignal): Promise<string> {
  const results = await Promise.all(
    opts.router.quickTools.map((name) =>
      opts.runEdge(name, { query }, signal).then(
        (result) => formatSource(name, result),
        () => `[${name}] unavailable right now`,
      ),
    ),
  );
  return results.filter(Boolean).join("\n\n");
}

function formatSource(tool: string, result: unknown): string {
  const r = result as {
    hits?: Array<{ title: string; text: string }>;
    results?: Array<{ title: string; url: string; snippet: string }>;
  };
  if (r?.hits)
    return r.hits.map((h) => `[knowledge] ${h.title}: ${h.text}`).join("\n") || `[${tool}] no matching documents`;
  if (r?.results)
    return r.results.map((w) => `[web] ${w.title} (${w.url}): ${w.snippet}`).join("\n") || `[${tool}] no results`;
  return `[${tool}] ${JSON.stringify(result).slice(0, 2000)}`;
}

function lastUserText(history: readonly ChatMessage[]): string {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m.role === "user") return contentText(m.content);
  }
  return "";
}
