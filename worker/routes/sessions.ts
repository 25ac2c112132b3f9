import { Hono, type Context } from "hono";
import { z } from "zod/mini";
import { CreateSessionRequest, type RestoredSessionResponse, type SessionResponse } from "../../shared/wire/api.ts";
import { ClientEvent } from "../../shared/session/client-events.ts";
import { orderedStages } from "../../shared/stages/stage-machine.ts";
import { LIMITS } from "../../shared/wire/protocol.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { sessionToken } from "../middleware/session-token.ts";
import { checkSiteOrigin } from "../middleware/site-origin.ts";
import { ownSession } from "../middleware/own-session.ts";
import { loadSessionAgent, loadSite } from "../config/config-store.ts";
import { publicAgent } from "./public-agent.ts";
import { chatConsent, consentRequired, consentVersionRefused } from "../config/consent-notice.ts";
import { requireSecret } from "../config/secrets.ts";
import { signToken } from "../session/token.ts";
import { privacyOf } from "../session/room-privacy.ts";
import { newSessionId } from "../placement/jurisdiction.ts";
import { admitSessionOpen } from "../limits/admission.ts";
import { repOfIdentity } from "../sales/rep-identity.ts";
import { consoleSession, hasConsoleCookie } from "../console/console-auth.ts";
import { sessionRoom } from "../objects.ts";

export const sessionRoutes = new Hono<AppEnv>();

/**
 * Only the site's owner tries a draft: the console's cookie of this very site (its preview frame is
 * on the worker's origin, so the cookie travels with the widget's session open). 401 without it.
 */
async function draftViewer(c: Context<AppEnv>, siteKey: string) {
  if (!hasConsoleCookie(c))
    throw new ApiError(401, "unauthorized", "A draft is tried from the owner's console only (sign in there)");
  const { site } = await consoleSession(c, { csrfHeader: false });
  if (site.siteKey !== siteKey) throw new ApiError(403, "forbidden", "This console session opens its own site only");
}

sessionRoutes.post(ROUTES.sessions, jsonBody(CreateSessionRequest), async (c) => {
  const { siteKey, agentId, locale, identity, draft, consent } = c.req.valid("json");
  const secret = requireSecret(c.env);
  const site = await checkSiteOrigin(c, siteKey, true);
  if (draft) await draftViewer(c, siteKey);
  const [agent] = await Promise.all([
    site.agents.includes(agentId) ? loadSessionAgent(c.env, { site: siteKey, agent: agentId, draft }) : null,
    admitSessionOpen(c, site),
  ]);
  if (!agent && draft) throw new ApiError(404, "not_found", `Agent ${JSON.stringify(agentId)} has no saved draft`);
  if (!agent)
    throw new ApiError(404, "unknown_agent", `Agent ${JSON.stringify(agentId)} is not available for this site`);
  // Where the agent asks consent, no session opens (nothing is stored) until the visitor agreed to its
  // current version; the widget shows the notice the refusal carries, then opens with that version.
  const notice = chatConsent(site, agent);
  if (notice && !consent) throw consentRequired(notice);
  if (notice && consent !== notice.version) throw consentVersionRefused(notice, consent!);
  // A forged, expired or other site's identity is refused here: no session opens with it.
  const rep = await repOfIdentity(c.env, site, identity);
  // The id names the site's jurisdiction: every later request finds the object where it was created.
  const sessionId = newSessionId(site.jurisdiction);
  const exp = Math.floor(Date.now() / 1000) + LIMITS.sessionTtlSeconds;
  const firstStage = orderedStages(agent.stages)[0]?.id;
  const [state, token] = await Promise.all([
    sessionRoom(c.env, sessionId).open(
      { sessionId, siteKey, agentId, ...(locale ? { locale } : {}) },
      firstStage,
      privacyOf(site),
      notice?.version,
    ),
    signToken(
      { sid: sessionId, site: siteKey, agent: agentId, ...(rep ? { rep } : {}), ...(draft ? { draft } : {}), exp },
      secret,
    ),
  ]);
  const body: SessionResponse = {
    sessionId,
    token,
    expiresAt: exp * 1000,
    agent: publicAgent(agent, c.env, site),
    state,
  };
  return c.json(body, 201);
});

sessionRoutes.get(ROUTES.session, sessionToken(), ownSession(), async (c) => {
  const claims = c.var.claims;
  const [{ state, streaming }, agent, site] = await Promise.all([
    sessionRoom(c.env, claims.sid).snapshot(),
    loadSessionAgent(c.env, claims),
    loadSite(c.env, claims.site),
  ]);
  if (!state.sessionId) throw new ApiError(404, "not_found", "Session not found");
  if (!agent) throw new ApiError(404, "unknown_agent", `Agent ${claims.agent} no longer exists`);
  const body: RestoredSessionResponse = { state, agent: publicAgent(agent, c.env, site ?? undefined), streaming };
  return c.json(body);
});

const AppendEvents = z.object({ events: z.array(ClientEvent).check(z.minLength(1), z.maxLength(50)) });

/**
 * The widget stores its tools' results as they finish and its own tools' trace steps (and may send
 * copies of advice the worker derived). Only those types (shared/session/client-events.ts), each about a call
 * or step the assistant made; the worker writes the events with its own ids, time and fields
 * (worker/session/client-events.ts).
 */
sessionRoutes.post(ROUTES.sessionEvents, sessionToken(), ownSession(), jsonBody(AppendEvents), async (c) => {
  const outcome = await sessionRoom(c.env, c.var.claims.sid).appendFromClient(c.req.valid("json").events);
  if ("refused" in outcome) throw new ApiError(outcome.refused.status, outcome.refused.code, outcome.refused.message);
  return c.json({ version: outcome.version });
});
