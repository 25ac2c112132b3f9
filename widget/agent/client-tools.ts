import { adviceProblem } from "../../shared/tools/advice-policy.ts";
import type { ToolInput } from "../../shared/tools/tool.ts";
import { TOOL_NAMES } from "../../shared/tools/tool-names.ts";
import type { ClientToolImpl, ToolRunContext } from "./executor.ts";
import { loadOnce } from "../load-once.ts";
import type { Advice } from "../../shared/session/session-events.ts";
import type { askFollowup } from "../../shared/tools/ask-followup.ts";
import type { recordAdvice } from "../../shared/tools/record-advice.ts";
import type { sampleSize } from "../../shared/tools/sample-size.ts";

/**
 * The sample-size calculator is the protocol designer's alone: it loads on its first use, so every
 * other agent with tools does not carry it (see bench:size, which counts it with the stage panel).
 */
const loadSampleSize = loadOnce(() => import("./tools/sample-size-math.ts"));

export interface ClientToolHooks {
  /** The assistant message the current tool calls belong to. */
  messageId: () => string;
  onAdvice: (advice: Advice) => void;
  /** The agent has the advice guard: a card needs evidence, and `urgent` is for emergencies only. */
  guarded?: boolean;
}

/**
 * Tools that run in the visitor's browser. record_advice turns the model's call into a card (the
 * only way advice is made: no keyword matching of prose, as the dermatology consult's advice cards
 * want); ask_followup shows the question and ends the turn (a stop condition) so the visitor answers it.
 */
export function createClientTools(hooks: ClientToolHooks): Record<string, ClientToolImpl> {
  const advise = (input: ToolInput<typeof recordAdvice>, ctx: ToolRunContext) => {
    // Refused cards go back to the model as the observation, so it can add evidence or drop the card.
    const problem = hooks.guarded ? adviceProblem(input) : null;
    if (problem) return { recorded: false, shown_to_visitor: false, error: problem };
    const advice: Advice = {
      id: ctx.call.id || crypto.randomUUID(),
      ...input,
      messageId: hooks.messageId(),
      at: Date.now(),
    };
    hooks.onAdvice(advice);
    return { recorded: true, id: advice.id, shown_to_visitor: true };
  };
  const followup = (input: ToolInput<typeof askFollowup>) => ({
    asked: true,
    question: input.question,
    note: "The visitor will answer in their next message.",
  });
  return {
    [TOOL_NAMES.recordAdvice]: advise as ClientToolImpl,
    [TOOL_NAMES.askFollowup]: followup as ClientToolImpl,
    [TOOL_NAMES.sampleSize]: (async (input: ToolInput<typeof sampleSize>) =>
      (await loadSampleSize()).computeSampleSize(input)) as ClientToolImpl,
  };
}
