import type { PublicAgent } from "../../shared/agent-config.ts";
import type { SessionResponse } from "../../shared/api.ts";
import type { SessionState } from "../../shared/session.ts";
import { ROUTES } from "../../shared/protocol.ts";
import { requestJson, type FetchLike } from "../transport/http.ts";

/** What the widget keeps in localStorage to find its session again after a reload. */
export interface StoredSession {
  sessionId: string;
  token: string;
  expiresAt: number;
}

export interface ApiContext {
  /** Base URL of the worker, without a trailing slash. */
  api: string;
  fetch?: FetchLike;
}

export function createSession(ctx: ApiContext, body: { siteKey: string; agentId: string; locale?: string }): Promise<SessionResponse> {
  return requestJson<SessionResponse>(ctx.api + ROUTES.sessions, { body, fetch: ctx.fetch });
}

/** The worker answers `{ state, agent }`; `agent` lets a restored widget draw its header without a new session. */
export function fetchSession(ctx: ApiContext, stored: StoredSession): Promise<{ state: SessionState; agent?: PublicAgent }> {
  const url = ctx.api + ROUTES.session.replace(":id", encodeURIComponent(stored.sessionId));
  return requestJson(url, { token: stored.token, fetch: ctx.fetch });
}

/** Expired, or about to be within the next request: `expiresAt` is in milliseconds (SessionResponse). */
export function isExpired(s: StoredSession, now = Date.now()): boolean {
  return s.expiresAt <= now + 5_000;
}
