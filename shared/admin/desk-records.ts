/**
 * What the strategy desk keeps and its owner's routes answer: queued requests, runs, their traces
 * and regression gates (worker/strategy/). The console reads them as the worker writes them.
 */
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

/** A run's trace as nested spans (run, loop, agent, completion, tool, gate), each with its time and outcome. */
export type SpanKind = "run" | "loop" | "agent" | "completion" | "tool" | "gate";
export type SpanAttr = string | number | boolean | null;

export interface Span {
  name: string;
  kind: SpanKind;
  startedAt: number;
  ms: number;
  ok: boolean;
  attrs: Record<string, SpanAttr>;
  children: Span[];
}

export interface GateVerdict {
  question: string;
  better: "A" | "B" | "same";
  reason: string;
}

export interface GateResult {
  passed: boolean;
  cases: number;
  worse: number;
  better: number;
  verdicts: GateVerdict[];
  /** Why the gate refused apart from the verdicts: what the candidate adds (candidate-screen.ts), no cases. */
  refusals: string[];
}

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

/** A run in the list of runs: without its trace and requests. */
export type RunSummary = Omit<RunRecord, "trace" | "requests">;
