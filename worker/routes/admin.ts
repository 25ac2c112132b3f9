import { Hono } from "hono";
import type { AdminAnswer } from "../../shared/wire/admin-answers.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { ApiError } from "../errors.ts";
import { adminKey, type AdminEnv } from "../middleware/admin-key.ts";
import { routePermission } from "../middleware/route-permission.ts";
import { promptAdminRoutes } from "./admin-prompts.ts";
import { deskAdminRoutes } from "./admin-desk.ts";
import { conversationAdminRoutes } from "./admin-conversations.ts";
import { PHOTO_ID } from "../../shared/chat/photo-ref.ts";
import { getPhoto } from "../photos/photo-store.ts";
import { photoResponse } from "../photos/photo-response.ts";
import { siteAdminRoutes } from "./admin-site.ts";
import { agentAdminRoutes } from "./admin-agents.ts";
import { agentDraftRoutes } from "./admin-agent-drafts.ts";
import { knowledgeAdminRoutes } from "./admin-knowledge.ts";
import { liveAdminRoutes } from "./admin-live.ts";
import { teamAdminRoutes } from "./admin-team.ts";
import { meAdminRoutes } from "./admin-me.ts";
import { auditAdminRoutes } from "./admin-audit.ts";
import { webhookAdminRoutes } from "./admin-webhooks.ts";
import { sessionRoom } from "../objects.ts";
import { ssoAdminRoutes } from "./admin-sso.ts";
import { bookingAdminRoutes } from "./admin-booking.ts";
import { mcpAdminRoutes } from "./admin-mcp.ts";

/**
 * A site owner's view, as the protocol designer's stage workflow and the strategy desk need it: the
 * site's sessions, newest first, and each session's state and trace (every completion with model,
 * tokens, ms and retries; every tool call; errors).
 */
export const adminRoutes = new Hono<AdminEnv>();
adminRoutes.use(ROUTES.adminScope, adminKey(), routePermission());
adminRoutes.route("/", promptAdminRoutes);
adminRoutes.route("/", deskAdminRoutes);
adminRoutes.route("/", siteAdminRoutes);
adminRoutes.route("/", agentAdminRoutes);
adminRoutes.route("/", agentDraftRoutes);
adminRoutes.route("/", knowledgeAdminRoutes);
adminRoutes.route("/", conversationAdminRoutes);
adminRoutes.route("/", liveAdminRoutes);
adminRoutes.route("/", teamAdminRoutes);
adminRoutes.route("/", meAdminRoutes);
adminRoutes.route("/", auditAdminRoutes);
adminRoutes.route("/", webhookAdminRoutes);
adminRoutes.route("/", ssoAdminRoutes);
adminRoutes.route("/", bookingAdminRoutes);
adminRoutes.route("/", mcpAdminRoutes);

/**
 * The session as its owner reads it (the trace with the owner's notes), when it belongs to the admin's
 * site; another site's session is not found (404).
 */
async function siteSession(c: { env: AdminEnv["Bindings"]; var: { site: AdminEnv["Variables"]["site"] } }, id: string) {
  const state = await sessionRoom(c.env, id).ownerState();
  if (!state.sessionId || state.siteKey !== c.var.site.siteKey)
    throw new ApiError(404, "not_found", "No such session for this site");
  return state;
}

adminRoutes.get(ROUTES.adminSession, async (c) =>
  c.json({ state: await siteSession(c, c.req.param("id")) } satisfies AdminAnswer<"GET", typeof ROUTES.adminSession>),
);

adminRoutes.get(ROUTES.adminTrace, async (c) => {
  const state = await siteSession(c, c.req.param("id"));
  return c.json({ sessionId: state.sessionId, agentId: state.agentId, usage: state.usage, trace: state.trace });
});

/** A visitor's photo, for the site owner (no-store, like the visitor's own copy). */
adminRoutes.get(ROUTES.adminPhoto, async (c) => {
  const state = await siteSession(c, c.req.param("id"));
  const id = c.req.param("photoId");
  const photo = PHOTO_ID.test(id) ? await getPhoto(c.env, state.siteKey, state.sessionId, id) : null;
  if (!photo) throw new ApiError(404, "not_found", "No such photo");
  return photoResponse({ id, ...photo });
});
