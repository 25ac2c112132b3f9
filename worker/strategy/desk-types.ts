import type { GateResult } from "./regression-gate.ts";
import type { Span } from "./desk-trace.ts";

export const REQUEST_SOURCES = ["tool", "feedback", "owner"] as const;
export type RequestSource = (typeof REQUEST_SOURCES)[number];

export interface DeskRequestInput {
  source: RequestSource;
  text: string;
  /** What the request came with: the visitor's message and the reply (feedback), the session. */
  context?: Record<string, string>;
}

export interface QueuedRequest extends DeskRequestInput {
  id: string;
  at: number;
  /** The run that holds it; null while it waits. */
  runId: string | null;
}

/** A request as its run read it, kept with the run: the owner reviews a candidate beside what was asked. */
export type RunRequest = Omit<QueuedRequest, "runId">;

export const RUN_STATUS = ["running", "failed", "candidate", "refused", "promoted", "rejected", "rolled_back"] as const;
export type RunStatus = (typeof RUN_STATUS)[number];

export interface RunRecord {
  id: string;
  status: RunStatus;
  trigger: "alarm" | "owner";
  startedAt: number;
  endedAt: number | null;
  requestIds: string[];
  /** The requests verbatim (visitors' words as they wrote them); absent from the list of runs. */
  requests: RunRequest[];
  /** Why it failed, was refused, or what it did. */
  reasons: string[];
  scores: number[];
  loops: number;
  tokens: number;
  completions: number;
  /** Candidate versions saved by a passing run. */
  candidate: { strategies?: number; guidance?: number };
  /** Production moves made by promotion (what a rollback undoes). */
  promoted: Record<string, { from: number | null; to: number }>;
  gate: GateResult | null;
  trace: Span | null;
}

/** A run just started: running, nothing spent or saved yet. */
export function startedRun(
  fields: Pick<RunRecord, "id" | "trigger" | "startedAt" | "requestIds">,
  requests: readonly QueuedRequest[] = [],
): RunRecord {
  return {
    ...fields,
    requests: requests.map(({ runId: _r, ...rest }) => rest),
    status: "running",
    endedAt: null,
    reasons: [],
    scores: [],
    loops: 0,
    tokens: 0,
    completions: 0,
    candidate: {},
    promoted: {},
    gate: null,
    trace: null,
  };
}
