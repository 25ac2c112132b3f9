import { Hono } from "hono";
import { FeedbackInput } from "../../shared/session-events.ts";
import { ROUTES } from "../../shared/protocol.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { sessionToken } from "../middleware/session-token.ts";
import { ownSession } from "../middleware/own-session.ts";
import { sessionRoom } from "../session/session-stub.ts";

export const feedbackRoutes = new Hono<AppEnv>();

/**
 * A visitor's thumbs up or down on an assistant reply, stored as a session event (the widget
 * folds the answered event into its copy).
 */
feedbackRoutes.post(ROUTES.sessionFeedback, sessionToken(), ownSession(), jsonBody(FeedbackInput), async (c) => {
  const claims = c.var.claims;
  const input = c.req.valid("json");
  const comment = input.comment?.trim();
  const outcome = await sessionRoom(c.env, claims.sid).giveFeedback({ ...input, ...(comment ? { comment } : { comment: undefined }) });
  if (!outcome) throw new ApiError(404, "not_found", `No assistant reply ${JSON.stringify(input.messageId)} in this session`);
  return c.json({ events: [outcome.event] }, 201);
});
