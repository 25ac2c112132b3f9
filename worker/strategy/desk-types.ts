import type { QueuedRequest, RunRecord } from "../../shared/admin/desk-records.ts";

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
