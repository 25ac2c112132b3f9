import { Hono, type Context } from "hono";
import { z } from "zod/mini";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import type { AdminAnswer } from "../../shared/wire/admin-answers.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { withinHours } from "../../shared/config/takeover-config.ts";
import { StaffMessageInput, StaffStepInput, type StaffStepResponse } from "../../shared/takeover/takeover-api.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { upgradeToRoom } from "../session/live-upgrade.ts";
import type { TakeoverOp } from "../session/takeover-ops.ts";
import { staffOf } from "../console/staff-identity.ts";
import type { AdminEnv } from "../middleware/admin-key.ts";
import { takeoverRefusal } from "./takeover.ts";
import { sessionRoom, siteIndex } from "../objects.ts";

type AdminContext = Context<AdminEnv>;

/**
 * Takeover, the staff's side, behind the admin middleware (the console's cookie, or the
 * admin key): the queue and live conversations, presence, a conversation's live channel, join,
 * write, hand back. Mounted by admin.ts.
 */
export const liveAdminRoutes = new Hono<AdminEnv>();

const enabled = (site: SiteConfig) => {
  if (!site.takeover.enabled)
    throw new ApiError(403, "takeover_disabled", "Takeover is off for this site: turn it on in Setup");
};

liveAdminRoutes.get(ROUTES.adminLive, async (c) => {
  const site = c.var.site;
  const { now, queue, live, present } = await siteIndex(c.env, site).liveOverview();
  const hours = withinHours(site.takeover.hours, now);
  const staff = { present, withinHours: hours, available: hours && present > 0, enabled: site.takeover.enabled };
  c.header("cache-control", "no-store");
  return c.json({ now, queue, live, staff } satisfies AdminAnswer<"GET", typeof ROUTES.adminLive>);
});

/** The Live page's heartbeat: its staff member counts as present (visitors asking are queued) for PRESENCE_TTL_MS. */
liveAdminRoutes.post(ROUTES.adminLivePresence, jsonBody(StaffStepInput), async (c) => {
  const site = c.var.site;
  enabled(site);
  const { staffId, name } = await staffOf(c.var.actor);
  const present = await siteIndex(c.env, site).staffBeat(staffId, name);
  const hours = withinHours(site.takeover.hours, Date.now());
  return c.json({ present, withinHours: hours, available: hours } satisfies AdminAnswer<
    "POST",
    typeof ROUTES.adminLivePresence
  >);
});

liveAdminRoutes.delete(ROUTES.adminLivePresence, async (c) => {
  await siteIndex(c.env, c.var.site).staffLeave((await staffOf(c.var.actor)).staffId);
  return c.body(null, 204);
});

/**
 * A conversation's live channel for staff: the same frames its visitor gets (log entries by seq,
 * replies as they stream), as a WebSocket (from the console's own origin: a page elsewhere cannot
 * ride the cookie) or as SSE (`?after=<seq>`).
 */
liveAdminRoutes.get(ROUTES.adminLiveChannel, async (c) => {
  const site = c.var.site;
  const room = sessionRoom(c.env, c.req.param("id"));
  const state = await room.getState();
  if (!state.sessionId || state.siteKey !== site.siteKey)
    throw new ApiError(404, "not_found", "No such session for this site");
  if (c.req.header("upgrade")?.toLowerCase() === "websocket") {
    if (c.req.header("origin") !== new URL(c.req.url).origin)
      throw new ApiError(403, "forbidden_origin", "The staff channel opens from the console's own origin only");
    return upgradeToRoom(room, c.req.header("sec-websocket-protocol"), {
      who: "staff",
      perMinute: site.rateLimits.sessionPerMinute,
    });
  }
  const after = Number(c.req.query("after") ?? 0);
  if (!Number.isInteger(after) || after < 0)
    throw new ApiError(400, "validation_failed", "Invalid query: after: a sequence number (0 or more)");
  return new Response(await room.follow(after), {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform" },
  });
});

async function step(c: AdminContext, op: TakeoverOp, status = 200) {
  enabled(c.var.site);
  const outcome = await sessionRoom(c.env, c.req.param("id") ?? "").takeover({ ...op, site: c.var.site.siteKey });
  const refused = takeoverRefusal(outcome);
  if (refused) throw refused;
  return c.json({ events: outcome.events, handler: outcome.handler } satisfies StaffStepResponse, status as 200);
}

/**
 * Join: the agent stops (a reply streaming now ends, kept); a second staff member is refused (409
 * already_taken). The visitor sees the account's display name.
 */
liveAdminRoutes.post(ROUTES.adminLiveJoin, jsonBody(StaffStepInput), async (c) => {
  const staff = await staffOf(c.var.actor);
  // Joining is being there: the staff member counts as present (a visitor's message checks it).
  await siteIndex(c.env, c.var.site).staffBeat(staff.staffId, staff.name);
  return step(c, { op: "join", staff });
});

liveAdminRoutes.post(ROUTES.adminLiveMessages, jsonBody(StaffMessageInput), async (c) => {
  const { id, content } = c.req.valid("json");
  const { staffId } = await staffOf(c.var.actor);
  // The name the visitor sees is the one given at join (the session's object checks it is this staff member).
  return step(c, { op: "staff_message", staff: { staffId, name: "-" }, ...(id ? { id } : {}), content }, 201);
});

liveAdminRoutes.post(ROUTES.adminLiveHandback, jsonBody(StaffStepInput), async (c) =>
  step(c, { op: "hand_back", staff: await staffOf(c.var.actor) }),
);
