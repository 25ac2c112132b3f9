import type { PublicAgent } from "../../shared/agent-config.ts";
import type { ChatMessage, ToolCall } from "../../shared/chat.ts";
import { adviceEvent, messageEvent, toStoredMessage } from "../../shared/events.ts";
import type { ToolDefinition } from "../../shared/tool.ts";
import * as ROUTES from "../../shared/routes.ts";
import { proxyCompletion } from "../agent/completion.ts";
import type { ExecutedCall } from "../agent/executor.ts";
import { newId } from "../agent/ids.ts";
import { runAgentLoop, type LoopResult, type StepView } from "../agent/loop.ts";
import { calledTool } from "../agent/stop-conditions.ts";
import type { FetchLike } from "../transport/http.ts";
import { loadOnce } from "../load-once.ts";
import { toChatHistory } from "./history.ts";
import type { SessionStore } from "./session-store.ts";

type ToolRuntime = typeof import("../agent/tool-runtime.ts");
/** The tool runtime loads on first need (see tool-runtime.ts); later calls reuse the module. */
export const loadToolRuntime: () => Promise<ToolRuntime> = loadOnce(() => import("../agent/tool-runtime.ts"));

/**
 * The agent's turns use tools (its own, its stages' extraction tool) or its router: the tool runtime will be
 * needed.
 */
export function usesToolRuntime(agent: PublicAgent): boolean {
  return agent.tools.length > 0 || agent.stages.length > 0 || !!agent.router;
}

/** The tools an agent may call: its own, and for a stage workflow the extraction tool and its stages' own tools. */
function toolNames(agent: PublicAgent): string[] {
  return [
    ...agent.tools,
    ...(agent.stages.length ? ["record_stage_data", ...agent.stages.flatMap((st) => st.tools)] : []),
  ];
}

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

/**
 * One visitor turn: the router first when the agent has one (quick path or loop), else the loop.
 * Each finished step joins the session as it happens; advice cards and client tool traces are
 * recorded as session events.
 */
export async function runTurn(ctx: TurnContext): Promise<LoopResult> {
  const { agent, session } = ctx;
  const complete = proxyCompletion({
    api: ctx.api,
    auth: session.auth,
    fetch: ctx.fetch,
    onEvent: (e) => session.apply([e]),
  });
  const names = toolNames(agent);
  // A plain chat agent's turn needs none of it; a model that calls a tool anyway still gets the
  // executor's answer ("unknown tool"), loaded then.
  const mod = usesToolRuntime(agent) ? await loadToolRuntime() : null;
  const tools: Record<string, ToolDefinition> = {};
  for (const name of names) if (mod) tools[name] = mod.TOOLS[name] ?? mod.edgeToolStub(name);

  let messageId = "";
  // The call's id lets the worker show what it checked (a quote) as a card with the call.
  const runEdge = (name: string, input: unknown, signal?: AbortSignal, callId?: string) =>
    session.api
      .call(ROUTES.tool, session.auth(), { body: { arguments: input, callId }, signal }, { name })
      .then((r) => {
        // What the tool changed in the session (e.g. a stage's context) shows at once.
        if (r.events?.length) session.apply(r.events);
        return r.result;
      });
  const execute = async (calls: ToolCall[], id: string): Promise<ExecutedCall[]> => {
    messageId = id;
    const rt = mod ?? (await loadToolRuntime());
    const clientImpls = rt.createClientTools({
      messageId: () => messageId,
      // Shown at once; the worker stores the same card from the call it relayed (same id), so the
      // browser sends none: advice in the session log cannot come from a browser.
      onAdvice: (advice) => session.apply([adviceEvent(advice)]),
      guarded: agent.guards?.advice,
    });
    return rt.runStepTools(calls, id, {
      tools,
      clientImpls,
      runEdge: (name, input, c) => runEdge(name, input, c.signal, c.call.id),
      signal: ctx.signal,
      timeoutMs: ctx.toolTimeoutMs,
      log: session.state.value.messages,
      asMessages: agent.strategy !== "text-react",
      record: session.record,
    });
  };
  const onMessage = (m: ChatMessage) => {
    session.apply([messageEvent(toStoredMessage(m, Date.now()))]);
    ctx.onStep(null);
  };
  const { messages } = session.state.value;
  // The page came back between steps: the loop goes on from the stored step (step-tools.ts).
  const pending = ctx.resumeId ? null : mod?.pendingStep(session.state.value, agent.maxSteps);
  const history = toChatHistory(pending ? messages.slice(0, pending.at) : messages);
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
  if (!agent.router || !mod || ctx.resumeId || pending) return runLoop().then(checked);
  return mod
    .routeTurn({
      router: agent.router,
      classifier: mod.classifyIntent,
      history,
      complete,
      runEdge,
      signal: ctx.signal,
      newId,
      onStep: ctx.onStep,
      onMessage,
      runLoop,
    })
    .then(checked);
}
