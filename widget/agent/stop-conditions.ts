import type { ToolCall } from "../../shared/chat/chat.ts";

/**
 * Small predicates that end the loop (vercel/ai's stopWhen habit): the loop goes on while the
 * model asks for tools and no condition holds.
 */
export interface LoopProgress {
  steps: number;
  lastToolCalls: readonly ToolCall[];
}

export type StopCondition = (p: LoopProgress) => boolean;

export const stepCountIs =
  (n: number): StopCondition =>
  (p) =>
    p.steps >= n;

/** E.g. `ask_followup`: the question is for the visitor, so the turn waits for their answer. */
export const calledTool =
  (name: string): StopCondition =>
  (p) =>
    p.lastToolCalls.some((c) => c.function.name === name);
