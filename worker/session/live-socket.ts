import { refusedResponse } from "./follow-request.ts";
import { LIVE_LIMITS } from "./live-limits.ts";
import type { SocketOpener } from "./live-upgrade.ts";

/**
 * A socket's state kept across hibernation (serializeAttachment): who opened it and the session's
 * requests a minute (its stop frames count there), whether it asked for frames (`asked`, once: a
 * second attach closes it) and gets them (`attached`), from this page (tab).
 */
export interface SocketTag extends SocketOpener {
  asked?: boolean;
  attached: boolean;
  tab?: string;
}

/** A socket closed for what it sent: an attach after the first, or frames past the session's rate. */
export const POLICY_CLOSE = 1008;
/** A socket closed for a frame that is not one (not JSON, unknown, out of bounds). */
export const UNSUPPORTED_CLOSE = 1003;

export const tagOf = (ws: WebSocket): SocketTag =>
  (ws.deserializeAttachment() as SocketTag | null) ?? { who: "visitor", perMinute: 0, attached: false };

/**
 * A WebSocket upgrade: accepted with the hibernation API (an idle socket costs nothing), tagged with
 * who opened it, unless that kind already holds its cap of open sockets (LIVE_LIMITS): then the
 * refusal the live routes answer as a 429.
 */
export function acceptSocket(ctx: DurableObjectState, request: Request, opener: SocketOpener): Response {
  if (request.headers.get("upgrade") !== "websocket") return new Response(null, { status: 426 });
  const cap = opener.who === "staff" ? LIVE_LIMITS.staffSockets : LIVE_LIMITS.visitorSockets;
  if (ctx.getWebSockets(opener.who).length >= cap) return refusedResponse({ ok: false, reason: "connections", cap });
  const [client, server] = Object.values(new WebSocketPair());
  ctx.acceptWebSocket(server, [opener.who]);
  server.serializeAttachment({ ...opener, attached: false } satisfies SocketTag);
  return new Response(null, { status: 101, webSocket: client });
}
