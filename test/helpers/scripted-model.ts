import type { Complete } from "../../widget/agent/completion.ts";
import { pickDemoStep, stepToolCalls, tokenize, type DemoScript } from "../../worker/demo/index.ts";

export interface ScriptedModelLog {
  purpose: string;
  messages: number;
  startedAt: number;
}

/**
 * A `Complete` that answers from a demo script the way the worker's demo model does (same engine),
 * without a network: for testing the agent loop and the router in Node. `delayMs` simulates a
 * completion's latency; every call is logged.
 */
export function scriptedModel(
  script: DemoScript,
  opts: { tools: string[]; delayMs?: number; log?: ScriptedModelLog[] },
): Complete {
  return async (req) => {
    const purpose = req.purpose ?? "chat";
    opts.log?.push({ purpose, messages: req.messages.length, startedAt: performance.now() });
    const step = pickDemoStep(script, {
      messages: req.messages,
      tools: purpose === "chat" ? opts.tools : purpose === "classify" ? ["classify_intent"] : [],
      forcedTool: purpose === "classify" ? "classify_intent" : undefined,
    });
    if (opts.delayMs) await sleep(opts.delayMs, req.signal);
    let text = "";
    for (const piece of tokenize(step.content ?? "")) {
      if (req.signal?.aborted) throw abortError();
      text += piece;
      req.onText?.(text);
    }
    const toolCalls = stepToolCalls(step, req.replyId);
    return { text, toolCalls, finishReason: toolCalls.length ? "tool_calls" : "stop" };
  };
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(abortError());
      },
      { once: true },
    );
  });
}

export function abortError(): Error {
  const err = new Error("aborted");
  err.name = "AbortError";
  return err;
}
