import * as ROUTES from "../../shared/wire/routes.ts";
import type { SessionState } from "../../shared/session/session.ts";
import type { StoreBase } from "./store-base.ts";

/** One step of the session's trace (route decision, completion, retry, tool call, stage...). */
export type TraceEntry = SessionState["trace"][number];

/** The page's debug mode: the session's trace, for the panel's trace view. */
export interface DebugSlice {
  /** The page enabled debug mode: the panel offers the session's trace. */
  debug: boolean;
  /** The session's trace as the worker keeps it (GET /v1/sessions/:id/trace with the session token). */
  fetchTrace(): Promise<TraceEntry[]>;
}

export function createDebugSlice({ opts, session }: StoreBase): DebugSlice {
  return {
    debug: !!opts.debug,
    fetchTrace: async () => (await session.api.call(ROUTES.trace, await session.ensure())).trace,
  };
}
