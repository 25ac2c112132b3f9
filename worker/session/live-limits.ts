import { ApiError } from "../errors.ts";

/**
 * What one session's live channel holds open at once. A visitor's token opens sockets only as fast
 * as the session's rate lets it upgrade, but each open one costs the object a send on every frame it
 * broadcasts, so the open ones are capped too. The visitor's caps leave room for a tab or two, a
 * reload, and a socket a lost network left half-open that the worker has not yet seen close.
 */
export const LIVE_LIMITS = {
  /** WebSockets a session's visitor may hold open at once; one more is refused (429) until one closes. */
  visitorSockets: 8,
  /** The SSE form's streams (where WebSockets are blocked): channel and reply follows together. */
  visitorStreams: 8,
  /** Staff sockets on one conversation (console tabs), counted apart so a visitor cannot lock staff out. */
  staffSockets: 16,
  /** Replies an attach may name with their offsets: a page streams one reply, a few at most. */
  repliesPerAttach: 16,
} as const;

/** Who opened a live connection: the visitor's widget (live route) or staff (the console's Live page). */
export type LiveClient = "visitor" | "staff";

/** The session holds as many live connections as it may: the route's answer (the client retries later). */
export function tooManyConnections(cap: number): ApiError {
  return new ApiError(
    429,
    "rate_limited",
    `This conversation has ${cap} live connections open already; close a tab or wait for one to end`,
    {},
    { "retry-after": "10" },
  );
}
