import { Hono } from "hono";
import type { ConsentResponse } from "../../shared/wire/api.ts";
import { ConsentInput } from "../../shared/session/consent.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { sessionToken } from "../middleware/session-token.ts";
import { ownSession } from "../middleware/own-session.ts";
import { loadSessionAgent, loadSite } from "../config/config-store.ts";
import { consentNotice, consentVersionRefused } from "../config/consent-notice.ts";
import { sessionRoom } from "../objects.ts";

export const consentRoutes = new Hono<AppEnv>();

/**
 * The visitor agreed to a consent notice in an open conversation (a new version of the conversation's
 * notice, or the photos' before the first one): the worker records `consent.given` with the version
 * and its own time. Only the notice's current version is taken (409 consent_version, with the current
 * notice, for any other); a kind the agent does not ask is 404. The browser never writes the event.
 */
consentRoutes.post(ROUTES.sessionConsent, sessionToken(), ownSession(), jsonBody(ConsentInput), async (c) => {
  const claims = c.var.claims;
  const { kind, version } = c.req.valid("json");
  const [site, agent] = await Promise.all([loadSite(c.env, claims.site), loadSessionAgent(c.env, claims)]);
  if (!site || !agent) throw new ApiError(404, "unknown_agent", `Agent ${claims.agent} no longer exists`);
  const notice = consentNotice(kind, site, agent);
  if (!notice) throw new ApiError(404, "not_found", `Agent ${agent.id} asks no ${kind} consent`);
  if (version !== notice.version) throw consentVersionRefused(notice, version);
  const events = await sessionRoom(c.env, claims.sid).giveConsent(kind, version);
  if (!events) throw new ApiError(404, "not_found", "Session not found; open a new session");
  return c.json({ events } satisfies ConsentResponse, 201);
});
