import type { PublicAgent } from "../../shared/config/agent-config.ts";
import type { ChatMessage } from "../../shared/chat/chat.ts";
import { messageEvent, toStoredMessage } from "../../shared/session/events.ts";
import { proxyCompletion, type Complete } from "../agent/completion.ts";
import { newId } from "../agent/ids.ts";
import { runAgentLoop, type LoopOptions, type LoopResult, type StepView } from "../agent/loop.ts";
import { calledTool } from "../agent/stop-conditions.ts";
import type { FetchLike } from "../transport/http.ts";
import { toChatHistory } from "./history.ts";
import { loadToolRuntime, usesToolRuntime } from "./load-tool-runtime.ts";
import type { SessionStore } from "./session-store.ts";

export interface TurnContext {
  api: string;
  fetch?: FetchLike;
  session: SessionStore;
  agent: PublicAgent;
  signal: AbortSignal;
  onStep: (view: StepView | null) => void;
  toolTimeoutMs?: number;
  /** The turn's reply is streaming at the worker already (a reload): follow it, then go on. */
  resumeId?: string;
}

/** What the tool runtime's part of a turn (tool-runtime.ts) works with. */
export interface TurnBase {
  ctx: TurnContext;
  complete: Complete;
  onMessage: (m: ChatMessage) => void;
  history: ChatMessage[];
  runEdge: (name: string, input: unknown, signal?: AbortSignal, callId?: string) => Promise<unknown>;
}

/**
 * What the agent does for one visitor turn: the router first when the agent has one (quick path or
 * loop), else the loop. Each finished step joins the session as it happens; advice cards and client
 * tool traces are recorded as session events. The live slice (live-slice.ts) runs it, one turn at a time.
 */
export async function runAgentTurn(ctx: TurnContext): Promise<LoopResult> {
  const { agent, session } = ctx;
  const complete = proxyCompletion({
    api: ctx.api,
    auth: session.auth,
    tab: session.tab,
    fetch: ctx.fetch,
    onEvent: (e) => session.apply([e]),
  });
  const runEdge = session.runTool;
  const onMessage = (m: ChatMessage) => {
    session.apply([messageEvent(toStoredMessage(m, Date.now()))]);
    ctx.onStep(null);
  };
  const { messages } = session.state.value;
  // A plain chat agent's turn needs none of the tool runtime; a model that calls a tool anyway still
  // gets the executor's answer ("unknown tool"), loaded then.
  const rt = usesToolRuntime(agent) ? await loadToolRuntime() : null;
  // The page came back between steps: the loop goes on from the stored step (step-tools.ts).
  const pending = ctx.resumeId ? null : rt?.pendingStep(session.state.value, agent.maxSteps);
  const history = toChatHistory(pending ? messages.slice(0, pending.at) : messages);
  const base: TurnBase = { ctx, complete, onMessage, history, runEdge };
  const tools = rt?.turnTools(base) ?? null;
  const execute: LoopOptions["execute"] = async (calls, id) =>
    (tools ?? (await loadToolRuntime()).turnTools(base)).execute(calls, id);
  const runLoop = () =>
    runAgentLoop({
      strategy: agent.strategy,
      history,
      complete,
      execute,
      maxSteps: agent.maxSteps - (pending?.before ?? 0),
      stopWhen: [calledTool("ask_followup")],
      signal: ctx.signal,
      newId,
      hooks: { onStep: ctx.onStep, onMessage },
      resumeId: ctx.resumeId,
      pending: pending?.step,
    });
  // The compliance guard, enforced here and not by the prompt: the turn's final answer, exactly as
  // the rep reads it, goes through compliance_check once, and a violation comes back as the rep's
  // flag card under it. The text has already been shown in full; the check never holds the stream.
  // Only the turn's last answer: a tool step (calls, no text for the rep) costs no request.
  const checked = (r: LoopResult) => {
    const last = r.steps.at(-1);
    if (agent.guards?.compliance && last?.answer.trim())
      runEdge("compliance_check", { text: last.answer, replyId: last.id }).catch(() => {});
    return r;
  };
  // A turn that goes on from a stored step skips the router: it was routed before the page went away.
  return (tools && !pending ? tools.run(runLoop) : runLoop()).then(checked);
}
