import { Hono } from "hono";
import { FeedbackInput } from "../../shared/session/session-events.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { sessionToken } from "../middleware/session-token.ts";
import { ownSession } from "../middleware/own-session.ts";
import { loadSite } from "../config/config-store.ts";
import { jurisdictionOf } from "../placement/jurisdiction.ts";
import { redactText } from "../privacy/redact-text.ts";
import { sessionRoom, strategyDesk } from "../objects.ts";

export const feedbackRoutes = new Hono<AppEnv>();

/**
 * A visitor's thumbs up or down on an assistant reply, stored as a session event (the widget
 * folds the answered event into its copy). A thumbs-down with a comment is a strategy desk request.
 */
feedbackRoutes.post(
  ROUTES.sessionFeedback,
  sessionToken(),
  ownSession({ consent: true }),
  jsonBody(FeedbackInput),
  async (c) => {
    const claims = c.var.claims;
    const input = c.req.valid("json");
    const comment = input.comment?.trim();
    const outcome = await sessionRoom(c.env, claims.sid).giveFeedback({
      ...input,
      ...(comment ? { comment } : { comment: undefined }),
    });
    if (!outcome)
      throw new ApiError(404, "not_found", `No assistant reply ${JSON.stringify(input.messageId)} in this session`);
    // A thumbs-down that says what went wrong asks the strategy desk; a thumbs-up marks a good case.
    if ((input.rating === "down" && comment) || input.rating === "up") {
      const site = await loadSite(c.env, claims.site);
      // The desk is in the site's jurisdiction (the conversation's id names it), and its queue is read by the
      // site's staff: with redaction on, it quotes the conversation redacted.
      const desk = strategyDesk(
        c.env,
        { siteKey: claims.site, jurisdiction: jurisdictionOf(claims.sid) },
        claims.agent,
      );
      const text = site?.redactTraces ? redactText : (t: string) => t;
      const context = {
        "visitor asked": text(outcome.question),
        "the reply": text(outcome.reply),
        session: claims.sid,
      };
      const request = { source: "feedback" as const, text: text(comment ?? ""), context };
      c.executionCtx.waitUntil(
        (input.rating === "up"
          ? desk.noteGood(claims.site, claims.agent, text(outcome.question))
          : desk.enqueue(claims.site, claims.agent, request, site?.desk.debounceMs ?? 60_000)
        ).catch(() => {}),
      );
    }
    return c.json({ events: [outcome.event] }, 201);
  },
);
