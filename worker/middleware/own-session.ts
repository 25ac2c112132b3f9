import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { checkSiteOrigin } from "./site-origin.ts";
import { admitLocally, admitTurn } from "../limits/admission.ts";
import { withContract } from "./contract.ts";
import { loadSessionAgent } from "../config/config-store.ts";
import { chatConsent } from "../config/consent-notice.ts";

/**
 * For /v1/sessions/:id/...: the token must be this session's own, from an allowed origin, and the
 * request counts against the session's and the client IP's rate limits like chat and tool calls.
 * `session: false`: the route's own call to the session's object checks the session's rate (one
 * round trip instead of two: a reattachment after a drop, see routes/live.ts). `consent`: the route
 * stores what the visitor writes, so the agent's consent notice must be agreed first (its current
 * version; 403 consent_required with the notice otherwise), in the same call to the object.
 */
export function ownSession(opts: { session?: boolean; consent?: boolean } = {}): MiddlewareHandler<AppEnv> {
  const ownSessionMiddleware: MiddlewareHandler<AppEnv> = async function ownSessionMiddleware(c, next) {
    const claims = c.var.claims;
    // A token opens its own session and no other.
    if (c.req.param("id") !== claims.sid)
      throw new ApiError(403, "forbidden", "This session token belongs to another session");
    const [site, agent] = await Promise.all([
      checkSiteOrigin(c, claims.site, false),
      opts.consent ? loadSessionAgent(c.env, claims) : null,
    ]);
    const notice = agent && chatConsent(site, agent);
    if (opts.session === false) await admitLocally(c, site, 0);
    else await admitTurn(c, site, claims, notice ? [notice] : []);
    await next();
  };
  return withContract(ownSessionMiddleware, { errors: OWN_SESSION_ERRORS });
}

const OWN_SESSION_ERRORS = [
  [403, "forbidden"],
  [403, "unknown_site"],
  [403, "forbidden_origin"],
  [404, "not_found"],
  [429, "rate_limited"],
] as const;
