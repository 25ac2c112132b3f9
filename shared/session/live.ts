import type { SessionEvent } from "./session-events.ts";

/**
 * The live channel of a session (GET /v1/sessions/:id/live): a WebSocket, or the same frames as
 * SSE `data:` events where WebSockets are blocked. The session's event log stays the one source
 * of truth: the channel carries its entries by sequence number, and the reply being streamed as
 * text at character offsets (UTF-16 units of the reply's SSE body, the text a client decodes from
 * the chat response), so a client that reattaches names what it has and gets exactly the rest.
 */
export const LIVE = {
  /** The WebSocket subprotocol the worker answers with; the token rides as a second one. */
  protocol: "parley.v1",
  /** Prefix of the subprotocol that carries the session token (browsers cannot set headers on a WebSocket). */
  tokenPrefix: "bearer.",
  /** Answered by the Durable Object without waking it (hibernation auto-response). */
  ping: '{"t":"ping"}',
  pong: '{"t":"pong"}',
} as const;

/** How a streamed reply ended: whole, cut (provider broke off, or Stop), or unknown here (use the log). */
export const REPLY_ENDS = ["complete", "interrupted", "gone"] as const;
export type ReplyEnd = (typeof REPLY_ENDS)[number];

/** Who erased a conversation: its visitor (from the widget), the site's owner, or the site's retention. */
export const ERASERS = ["visitor", "owner", "retention"] as const;
export type Eraser = (typeof ERASERS)[number];

/** Worker -> client. */
export type LiveFrame =
  | { t: "e"; seq: number; event: SessionEvent }
  /** Text `d` of reply `id` starting at offset `o`. */
  | { t: "r"; id: string; o: number; d: string }
  | { t: "end"; id: string; status: ReplyEnd }
  /** The conversation was erased (the channel closes after this frame): nothing of it is kept. */
  | { t: "erased"; by: Eraser };

/**
 * Client -> worker: events after `after`, and of each reply named its text from the offset given.
 * `tab`: the page's id, which its chat requests name too (`parley.tab`): the text of a reply the page
 * streams over its own chat response is not sent to it again here.
 */
export interface AttachFrame {
  t: "attach";
  after: number;
  replies?: Record<string, number>;
  tab?: string;
}
export interface StopFrame {
  t: "stop";
  id: string;
}
export type ClientFrame = AttachFrame | StopFrame;
