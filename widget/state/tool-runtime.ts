/**
 * The tool runtime: everything an agent with tools needs and a plain chat agent does not, in the one
 * module the widget imports lazily (load-tool-runtime.ts): the tools' input checks (JSON schemas
 * derived from the zod schemas at build time, so no zod ships to the browser), their execution
 * (browser tools, edge calls), the router, and a turn's glue between them and the session. Loaded
 * once the agent's config says it has tools, a router or stages (or on first need).
 */
import type { ToolCall } from "../../shared/chat/chat.ts";
import { adviceEvent } from "../../shared/chat/step-events.ts";
import type { CheckedTool } from "../../shared/tools/tool.ts";
import type { ExecutedCall } from "../agent/executor.ts";
import type { LoopResult } from "../agent/loop.ts";
import { newId } from "../agent/ids.ts";
import { classifyIntent, edgeToolStub, TOOLS } from "../agent/tool-checks.ts";
import { createClientTools } from "../agent/client-tools.ts";
import { runStepTools } from "../agent/step-tools.ts";
import { routeTurn } from "../agent/router.ts";
import type { TurnBase } from "./agent-turn.ts";

export { classifyIntent, edgeToolStub, TOOLS } from "../agent/tool-checks.ts";
export { parseToolInput } from "../../shared/tools/tool.ts";
export { createClientTools } from "../agent/client-tools.ts";
export { executeToolCalls } from "../agent/executor.ts";
export { pendingStep, runStepTools } from "../agent/step-tools.ts";
export { routeTurn } from "../agent/router.ts";

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
