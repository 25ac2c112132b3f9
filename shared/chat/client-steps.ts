import { traceEventId } from "./step-events.ts";

/**
 * The trace steps a browser writes into its session's log (widget/agent/step-tools.ts): a run of
 * one of its own tools, and a turn the visitor stopped while its tools ran. Every other kind
 * (completions, retries, edge tools, guards, takeover) is the worker's, and refused from a browser.
 */
export const CLIENT_STEP_KINDS = ["tool", "stopped"] as const;
export type ClientStepKind = (typeof CLIENT_STEP_KINDS)[number];

/** How a tool call ended in the browser's executor. */
export const TOOL_OUTCOMES = ["ok", "invalid", "error", "timeout", "aborted", "unknown"] as const;
export type ToolOutcome = (typeof TOOL_OUTCOMES)[number];

/**
 * The ids of those steps, each named after what it is about (one per tool call, one per stopped
 * step), so a step sent twice is stored once, and the worker can tell what a step claims to be about.
 */
export const toolStepId = (callId: string) => traceEventId(callId);
export const stoppedStepId = (stepId: string) => traceEventId(`stopped:${stepId}`);

/** A text ReAct step stores no tool calls: the one call the widget reads from its text is named after it. */
export const reactCallId = (stepId: string) => `react_${stepId}`;
