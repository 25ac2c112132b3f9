import { Hono, type Context } from "hono";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import {
  STAFF_MESSAGE_PREFIX,
  VisitorMessageInput,
  type PersonRequestResponse,
  type TakeoverResponse,
} from "../../shared/takeover/takeover-api.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { loadSite } from "../config/config-store.ts";
import { jsonBody } from "../middleware/validate.ts";
import { sessionToken } from "../middleware/session-token.ts";
import { ownSession } from "../middleware/own-session.ts";
import { nobodyAvailable } from "../session/takeover-availability.ts";
import type { TakeoverOutcome } from "../session/takeover-ops.ts";
import { sessionRoom, siteIndex } from "../objects.ts";
import { ContactInput, PersonRequestInput } from "../../shared/takeover/takeover-events.ts";

/**
 * Takeover, the visitor's side, with the session's token from an allowed origin: ask
 * for a person, write to the person handling the conversation, leave a contact when nobody could
 * come. Each answers the events it stored; the live channel carries them to every tab and to staff.
 */
export const takeoverRoutes = new Hono<AppEnv>();

async function takeoverSite(c: Context<AppEnv>): Promise<SiteConfig> {
  const site = await loadSite(c.env, c.var.claims.site);
  if (!site?.takeover.enabled)
    throw new ApiError(403, "takeover_disabled", "This site does not hand conversations to a person");
  return site;
}

/** The session's object's refusals as the routes answer them. */
export function takeoverRefusal(outcome: TakeoverOutcome): ApiError | null {
  const h = outcome.handler;
  switch (outcome.status) {
    case "unknown_session":
      return new ApiError(404, "not_found", "Session not found");
    case "already_taken":
      return new ApiError(409, "already_taken", `${h.kind === "person" ? h.name : "Someone"} already handles it`);
    case "not_taken_over":
      return new ApiError(
        409,
        "not_taken_over",
        h.kind === "person"
          ? `${h.name} handles this conversation, not you`
          : "No person handles this conversation: the agent answers (POST /v1/chat/completions)",
      );
    default:
      return null;
  }
}

takeoverRoutes.post(
  ROUTES.sessionPerson,
  sessionToken(),
  ownSession({ consent: true }),
  jsonBody(PersonRequestInput),
  async (c) => {
    const site = await takeoverSite(c);
    const room = sessionRoom(c.env, c.var.claims.sid);
    const { reason } = c.req.valid("json");
    const unavailable = await nobodyAvailable(c.env, site);
    const outcome = await room.takeover({ op: "request", by: "visitor", ...(reason ? { reason } : {}), unavailable });
    const refused = takeoverRefusal(outcome);
    if (refused) throw refused;
    const status = outcome.status === "unavailable" || outcome.status === "with_person" ? outcome.status : "queued";
    const told = outcome.events.find((e) => e.type === EVENT_TYPES.personUnavailable);
    const body: PersonRequestResponse = { status, events: outcome.events, ...(told ? told.data : {}) };
    return c.json(body);
  },
);

takeoverRoutes.post(
  ROUTES.sessionMessages,
  sessionToken(),
  ownSession({ consent: true }),
  jsonBody(VisitorMessageInput),
  async (c) => {
    const site = await takeoverSite(c);
    const { id, content } = c.req.valid("json");
    if (id.startsWith(STAFF_MESSAGE_PREFIX))
      throw new ApiError(403, "forbidden", `Message ids starting ${STAFF_MESSAGE_PREFIX} are staff messages'`);
    const room = sessionRoom(c.env, c.var.claims.sid);
    const { handler } = await room.getState();
    const gone = handler.kind === "person" && !(await siteIndex(c.env, site).staffIsPresent(handler.staffId));
    const outcome = await room.takeover({ op: "visitor_message", id, content, staffGone: gone });
    const refused = takeoverRefusal(outcome);
    if (refused) throw refused;
    return c.json({ events: outcome.events } satisfies TakeoverResponse, 201);
  },
);

takeoverRoutes.post(
  ROUTES.sessionContact,
  sessionToken(),
  ownSession({ consent: true }),
  jsonBody(ContactInput),
  async (c) => {
    await takeoverSite(c);
    const contact = c.req.valid("json");
    const outcome = await sessionRoom(c.env, c.var.claims.sid).takeover({ op: "contact", contact });
    const refused = takeoverRefusal(outcome);
    if (refused) throw refused;
    return c.json({ events: outcome.events } satisfies TakeoverResponse, 201);
  },
);
