import { Hono } from "hono";
import { ChatRequest } from "../../shared/chat/chat.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { AppEnv } from "../env.ts";
import { jsonBody } from "../middleware/validate.ts";
import { sessionToken } from "../middleware/session-token.ts";
import { prepareTurn } from "../chat/prepare-turn.ts";
import { streamTurn } from "../chat/stream-turn.ts";
import { jsonTurn } from "../chat/json-turn.ts";

export const chatRoutes = new Hono<AppEnv>();

/**
 * OpenAI-compatible chat completions, one pipeline: prepareTurn (the token, the site and agent, the
 * session's admission as admission-plan.ts places it, the guard, the prompt, the body, the models to
 * ask, the IP's rate and the site's budget), then streamTurn (the session's object runs the reply) or
 * jsonTurn (the route does). Nothing is stored or relayed for a refused request. The session records
 * the new input and, from the same bytes the client receives, the reply, its usage (counted into the
 * session and the site's day) and the completion's trace steps.
 */
chatRoutes.post(ROUTES.chat, sessionToken(), jsonBody(ChatRequest), async (c) => {
  const turn = await prepareTurn(c, c.req.valid("json"));
  return turn.body.stream ? streamTurn(c, turn) : jsonTurn(c, turn);
});
