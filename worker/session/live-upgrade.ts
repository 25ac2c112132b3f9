import { LIVE } from "../../shared/live.ts";
import { ApiError } from "../errors.ts";
import type { sessionRoom } from "./session-stub.ts";

/**
 * Hands a WebSocket upgrade to the session's object, which accepts it with the hibernation API: the
 * visitor's live channel and staff's both come here once their caller is checked. The client must
 * offer the channel's subprotocol (the token, where it rides as a second one, stays with the route).
 */
export async function upgradeToRoom(
  room: ReturnType<typeof sessionRoom>,
  offeredHeader: string | undefined,
): Promise<Response> {
  const offered = (offeredHeader ?? "").split(",").map((p) => p.trim());
  if (!offered.includes(LIVE.protocol))
    throw new ApiError(400, "bad_request", `WebSocket subprotocol ${LIVE.protocol} is required`);
  const res = await room.fetch(new Request("https://room/live", { headers: { upgrade: "websocket" } }));
  if (!res.webSocket) throw new ApiError(503, "internal", "The session did not accept the WebSocket");
  // A response of our own (the object's headers are immutable; CORS adds its own).
  return new Response(null, {
    status: 101,
    webSocket: res.webSocket,
    headers: { "sec-websocket-protocol": LIVE.protocol },
  });
}
