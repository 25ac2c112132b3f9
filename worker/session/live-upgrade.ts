import { LIVE } from "../../shared/session/live.ts";
import { ApiError } from "../errors.ts";
import { followRefusal } from "./follow-request.ts";
import { tooManyConnections, type LiveClient } from "./live-limits.ts";
import type { sessionRoom } from "../objects.ts";

/** Who opens a socket, and the session's requests a minute its frames are counted against. */
export interface SocketOpener {
  who: LiveClient;
  perMinute: number;
}

const UPGRADE_URL = "https://room/live";

/** The object's side: who asked for the socket (the route that checked the caller wrote it). */
export function readUpgrade(url: string): SocketOpener {
  const q = new URL(url).searchParams;
  return { who: q.get("who") === "staff" ? "staff" : "visitor", perMinute: Number(q.get("pm")) || 0 };
}

/**
 * Hands a WebSocket upgrade to the session's object, which accepts it with the hibernation API: the
 * visitor's live channel and staff's both come here once their caller is checked. The client must
 * offer the channel's subprotocol (the token, where it rides as a second one, stays with the route).
 * The object refuses a socket over its caps (live-limits.ts): a 429 the client retries.
 */
export async function upgradeToRoom(
  room: ReturnType<typeof sessionRoom>,
  offeredHeader: string | undefined,
  opener: SocketOpener,
): Promise<Response> {
  const offered = (offeredHeader ?? "").split(",").map((p) => p.trim());
  if (!offered.includes(LIVE.protocol))
    throw new ApiError(400, "bad_request", `WebSocket subprotocol ${LIVE.protocol} is required`);
  const q = new URLSearchParams({ who: opener.who, pm: String(opener.perMinute) });
  const res = await room.fetch(new Request(`${UPGRADE_URL}?${q}`, { headers: { upgrade: "websocket" } }));
  const refused = await followRefusal(res);
  if (refused?.reason === "connections") throw tooManyConnections(refused.cap);
  if (!res.webSocket) throw new ApiError(503, "internal", "The session did not accept the WebSocket");
  // A response of our own (the object's headers are immutable; CORS adds its own).
  return new Response(null, {
    status: 101,
    webSocket: res.webSocket,
    headers: { "sec-websocket-protocol": LIVE.protocol },
  });
}
