import { Hono } from "hono";
import { LiveQuery } from "../../shared/session/live-query.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { sessionToken } from "../middleware/session-token.ts";
import { ownSession } from "../middleware/own-session.ts";
import { checkSiteOrigin } from "../middleware/site-origin.ts";
import { admitSession, sessionRefusal } from "../limits/admission.ts";
import { upgradeToRoom } from "../session/live-upgrade.ts";
import { followRefusal, followRequest } from "../session/follow-request.ts";
import { tooManyConnections } from "../session/live-limits.ts";
import { sessionRoom } from "../objects.ts";

export const liveRoutes = new Hono<AppEnv>();

/**
 * The session's live channel, after the token (its own session, from an allowed origin): a
 * WebSocket upgrade is handed to the session's Durable Object, which accepts it with the
 * hibernation API; any other GET gets the same frames as SSE (`?after=<seq>` for the whole channel,
 * `?reply=<id>&from=<offset>` for one reply's rest, which ends with the reply).
 */
liveRoutes.get(ROUTES.live, sessionToken(), ownSession({ session: false }), async (c) => {
  const parsed = LiveQuery.safeParse(c.req.query());
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError(400, "validation_failed", `Invalid query: ${issue.path.join(".")}: ${issue.message}`);
  }
  const room = sessionRoom(c.env, c.var.claims.sid);
  const site = await checkSiteOrigin(c, c.var.claims.site, false);
  const perMinute = site.rateLimits.sessionPerMinute;
  if (c.req.header("upgrade")?.toLowerCase() === "websocket") {
    await admitSession(c, site, c.var.claims, false);
    return upgradeToRoom(room, c.req.header("sec-websocket-protocol"), { who: "visitor", perMinute });
  }
  const { after = 0, reply, from = 0, tab } = parsed.data;
  // Admitted by the object as it attaches: a storm of reattaching visitors costs it one call each.
  const followed = await room.fetch(followRequest({ after, reply, from, perMinute, tab }));
  const refused = await followRefusal(followed);
  if (refused) throw refused.reason === "connections" ? tooManyConnections(refused.cap) : sessionRefusal(site, refused);
  // A response of our own: the object's headers are immutable, and CORS adds its own.
  return new Response(followed.body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
});

/** Stop, from any tab or after a reload: the provider's request ends and the reply is kept, interrupted. */
liveRoutes.post(ROUTES.replyStop, sessionToken(), ownSession(), async (c) => {
  const stopped = await sessionRoom(c.env, c.var.claims.sid).stopReply(c.req.param("replyId"));
  return c.json({ stopped });
});
