import type { ChatMessage, ToolCall } from "../../shared/chat/chat.ts";
import type { Complete, StepResult } from "./completion.ts";
import type { ExecutedCall } from "./executor.ts";
import { stepCountIs, type StopCondition } from "./stop-conditions.ts";
import { loadTextReact } from "./strategies/load-text-react.ts";

export type Strategy = "native" | "text-react" | "hybrid";

/** What one completion of the turn shows: the answer text, the reasoning, the tools it used. */
export interface StepView {
  id: string;
  answer: string;
  reasoning: string;
  toolCalls: ToolCall[];
  results: ExecutedCall[];
  /** The provider's finish reason came: the text is complete, and shown at once rather than on the next redraw. */
  ended?: boolean;
}

export interface LoopHooks {
  /** The step being streamed changed (text so far, reasoning, tool calls, results). */
  onStep?: (view: StepView) => void;
  /** A message joined the conversation (a finished assistant step, a tool result, an observation). */
  onMessage?: (message: ChatMessage) => void;
}

export interface LoopOptions {
  strategy: Strategy;
  /** The conversation so far, the visitor's new message last. */
  history: ChatMessage[];
  complete: Complete;
  execute: (calls: ToolCall[], messageId: string) => Promise<ExecutedCall[]>;
  maxSteps: number;
  stopWhen?: StopCondition[];
  signal?: AbortSignal;
  newId: () => string;
  hooks?: LoopHooks;
  /** A reply already streaming at the worker (the page was reloaded): the first step follows it. */
  resumeId?: string;
  /** A stored step whose tools had not all answered when the page went away: the loop goes on from it. */
  pending?: StepResult & { id: string };
}

export type LoopEnd = "complete" | "stopped" | "step_limit" | "aborted";

export interface LoopResult {
  end: LoopEnd;
  /** Messages this turn added (assistant replies, tool results / observations), for the next turn's history. */
  added: ChatMessage[];
  steps: StepView[];
}

const isAbort = (e: unknown) => (e as Error | null)?.name === "AbortError";

/**
 * The agent loop: complete, run the tools the model asked for, feed back what they returned,
 * again — until a final answer, a stop condition, the step limit, or the visitor's Stop. Native
 * function calling and text ReAct differ only in how a step is read and how observations go back.
 */
export async function runAgentLoop(opts: LoopOptions): Promise<LoopResult> {
  const added: ChatMessage[] = [];
  const steps: StepView[] = [];
  const stops = [stepCountIs(opts.maxSteps), ...(opts.stopWhen ?? [])];
  const react = opts.strategy === "text-react";
  const { readReactStep, reactDisplay } = react
    ? await loadTextReact()
    : ({} as Awaited<ReturnType<typeof loadTextReact>>);
  const add = (m: ChatMessage) => {
    added.push(m);
    opts.hooks?.onMessage?.(m);
  };
  let resume = opts.resumeId;
  let pending = opts.pending;
  /**
   * After a tool step, the next step's id follows from it: two pages going on from the same stored
   * step (a second tab, a retry) ask for one reply, and the worker answers the second 409 (it follows).
   */
  let next: string | undefined;
  for (;;) {
    const view: StepView = {
      id: pending?.id ?? resume ?? next ?? opts.newId(),
      answer: "",
      reasoning: "",
      toolCalls: [],
      results: [],
    };
    steps.push(view);
    const show = () => opts.hooks?.onStep?.({ ...view });
    const render = (text: string, reasoning = "", ended = false) => {
      view.ended ||= ended;
      if (react) Object.assign(view, reactDisplay(text));
      else if (opts.strategy === "hybrid" && /^\s*Thought\s*:/i.test(text))
        view.reasoning = text.replace(/^\s*Thought\s*:\s*/i, "");
      else view.answer = text;
      // The model's own thinking (a reasoning model's field or think block) is reasoning, whatever the strategy.
      if (reasoning) view.reasoning = react ? `${reasoning}\n${view.reasoning}`.trim() : reasoning;
      show();
    };
    let step;
    try {
      step =
        pending ??
        (await opts.complete({
          messages: [...opts.history, ...added],
          replyId: view.id,
          signal: opts.signal,
          onText: render,
          resume: !!resume,
        }));
      resume = pending = undefined;
    } catch (err) {
      if (isAbort(err) || opts.signal?.aborted) return { end: "aborted", added, steps };
      throw err;
    }
    render(step.text, step.reasoning);
    const reasoning = step.reasoning ? { reasoning_content: step.reasoning } : {};

    let calls: ToolCall[] = step.toolCalls;
    let invalid: string | null = null;
    if (react) {
      const read = readReactStep(view.id, step.text);
      calls = read.calls;
      invalid = read.error ?? null;
      if (!calls.length && !invalid) {
        view.answer = read.answer;
        view.reasoning = read.thought;
      }
      add({ id: view.id, role: "assistant", content: step.text, ...reasoning });
    } else {
      const content = step.text || null;
      add({ id: view.id, role: "assistant", content, ...(calls.length ? { tool_calls: calls } : {}), ...reasoning });
    }
    view.toolCalls = calls;
    show();

    if (!calls.length && !invalid) return { end: "complete", added, steps };
    if (invalid) {
      add({ id: opts.newId(), role: "user", content: `Observation: ${invalid}` });
    } else {
      view.results = await opts.execute(calls, view.id);
      // At most 20 steps (AgentConfig.maxSteps): an id grows to 20 characters past the first step's.
      next = view.id + "+";
      show();
      if (react) {
        add({ id: opts.newId(), role: "user", content: `Observation: ${view.results[0].observation}` });
      } else {
        for (const r of view.results)
          add({ id: r.messageId ?? opts.newId(), role: "tool", tool_call_id: r.call.id, content: r.observation });
      }
    }
    if (opts.signal?.aborted) return { end: "aborted", added, steps };
    const progress = { steps: steps.length, lastToolCalls: calls };
    if (stops.slice(1).some((s) => s(progress))) return { end: "stopped", added, steps };
    if (stops[0](progress)) return { end: "step_limit", added, steps };
  }
}
