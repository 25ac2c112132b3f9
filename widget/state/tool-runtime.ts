import type { ToolCall } from "../../shared/chat.ts";
import { adviceEvent } from "../../shared/step-events.ts";
import type { CheckedTool } from "../../shared/tool.ts";
import type { ExecutedCall } from "../agent/executor.ts";
import type { LoopResult } from "../agent/loop.ts";
import { newId } from "../agent/ids.ts";
import {
  classifyIntent,
  createClientTools,
  edgeToolStub,
  routeTurn,
  runStepTools,
  TOOLS,
} from "../agent/tool-runtime.ts";
import type { TurnBase } from "./run-turn.ts";

export * from "../agent/tool-runtime.ts";

/** The tools an agent may call: its own, and for a stage workflow the extraction tool and its stages' own tools. */
function toolNames(agent: TurnBase["ctx"]["agent"]): string[] {
  return [
    ...agent.tools,
    ...(agent.stages.length ? ["record_stage_data", ...agent.stages.flatMap((st) => st.tools)] : []),
  ];
}

/**
 * What a turn does with tools, in the tool runtime's chunk (a plain chat agent's turn never loads it):
 * runs the model's calls (browser tools here, edge tools through the worker) and, for an agent with a
 * router, sends the turn down the quick path or the loop.
 */
export function turnTools({ ctx, complete, onMessage, history, runEdge }: TurnBase) {
  const { agent, session } = ctx;
  const tools: Record<string, CheckedTool> = {};
  for (const name of toolNames(agent)) tools[name] = TOOLS[name] ?? edgeToolStub(name);
  let messageId = "";
  const clientImpls = createClientTools({
    messageId: () => messageId,
    // Shown at once; the worker stores the same card from the call it relayed (same id), so the
    // browser sends none: advice in the session log cannot come from a browser.
    onAdvice: (advice) => session.apply([adviceEvent(advice)]),
    guarded: agent.guards?.advice,
  });
  const execute = (calls: ToolCall[], id: string): Promise<ExecutedCall[]> => {
    messageId = id;
    return runStepTools(calls, id, {
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
  /** The turn: the router first when the agent has one (quick path or loop), else the loop. */
  const run = (runLoop: () => Promise<LoopResult>): Promise<LoopResult> =>
    !agent.router || ctx.resumeId
      ? runLoop()
      : routeTurn({
          router: agent.router,
          classifier: classifyIntent,
          history,
          complete,
          runEdge,
          signal: ctx.signal,
          newId,
          onStep: ctx.onStep,
          onMessage,
          runLoop,
        });
  return { execute, run };
}
