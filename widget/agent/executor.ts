import type { ToolCall } from "../../shared/chat/chat.ts";
import { parseToolInput, type CheckedTool } from "../../shared/tools/tool.ts";
import type { ToolOutcome } from "../../shared/chat/client-steps.ts";

export interface ExecutedCall {
  call: ToolCall;
  outcome: ToolOutcome;
  /** The observation the model reads next (JSON text of the result, or what went wrong). */
  observation: string;
  result?: unknown;
  ms: number;
  side: "client" | "edge";
  /** The id of the tool message that carries the result (one already in the session's log is reused). */
  messageId?: string;
}

export interface ToolRunContext {
  signal: AbortSignal;
  call: ToolCall;
}

/** A client-side tool's implementation. Edge tools all go through `runEdge`. */
export type ClientToolImpl = (input: never, ctx: ToolRunContext) => Promise<unknown> | unknown;

export interface ExecutorOptions {
  /** The tools this agent may use, by name. */
  tools: Record<string, CheckedTool>;
  clientImpls: Record<string, ClientToolImpl>;
  runEdge: (name: string, input: unknown, ctx: ToolRunContext) => Promise<unknown>;
  timeoutMs?: number;
  signal?: AbortSignal;
  now?: () => number;
}

const MAX_OBSERVATION = 8_000;

/**
 * Runs one assistant turn's tool calls, in parallel (they were asked for together, so none waits
 * on another's result). Nothing here throws: bad arguments, a thrown error, a timeout or an
 * unknown tool each become an observation the model can act on.
 */
export function executeToolCalls(calls: readonly ToolCall[], opts: ExecutorOptions): Promise<ExecutedCall[]> {
  return Promise.all(calls.map((call) => executeOne(call, opts)));
}

async function executeOne(call: ToolCall, opts: ExecutorOptions): Promise<ExecutedCall> {
  const now = opts.now ?? (() => performance.now());
  const started = now();
  const name = call.function.name;
  const def = opts.tools[name];
  const side = def?.runsOn ?? "client";
  const done = (outcome: ToolOutcome, observation: string, result?: unknown): ExecutedCall => ({
    call,
    outcome,
    observation: clip(observation),
    result,
    ms: Math.round(now() - started),
    side,
  });
  if (!def)
    return done("unknown", `Unknown tool ${name}. Available tools: ${Object.keys(opts.tools).join(", ") || "none"}.`);
  const parsed = parseToolInput(def, call.function.arguments);
  if (!parsed.ok) return done("invalid", parsed.error);

  const ctrl = new AbortController();
  const onAbort = () => ctrl.abort();
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  const timeoutMs = opts.timeoutMs ?? 15_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => {
      resolve("timeout"); // first: the abort below would otherwise settle the race as "aborted"
      ctrl.abort();
    }, timeoutMs);
  });
  const aborted = new Promise<"aborted">((resolve) =>
    ctrl.signal.addEventListener("abort", () => resolve("aborted"), { once: true }),
  );
  try {
    const ctx = { signal: ctrl.signal, call };
    const run =
      def.runsOn === "edge"
        ? opts.runEdge(name, parsed.value, ctx)
        : Promise.resolve().then(() => {
            const impl = opts.clientImpls[name];
            if (!impl) throw new Error(`no implementation of ${name} in this widget`);
            return impl(parsed.value as never, ctx);
          });
    const winner = await Promise.race([run.then((result) => ({ result })), timeout, aborted]);
    if (winner === "timeout")
      return done("timeout", `${name} timed out after ${timeoutMs / 1000} s. Continue without it, or try once more.`);
    if (winner === "aborted") return done("aborted", `${name} was stopped by the visitor.`);
    return done("ok", JSON.stringify(winner.result ?? null), winner.result);
  } catch (err) {
    if (opts.signal?.aborted) return done("aborted", `${name} was stopped by the visitor.`);
    return done("error", `${name} failed: ${err instanceof Error ? err.message : String(err)}. Continue without it.`);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onAbort);
  }
}

function clip(text: string): string {
  return text.length > MAX_OBSERVATION ? `${text.slice(0, MAX_OBSERVATION)}… (truncated)` : text;
}
