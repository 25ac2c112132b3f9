import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { verifyToken } from "../session/token.ts";
import { requireSecret } from "../config/secrets.ts";
import { LIVE } from "../../shared/session/live.ts";
import { withContract } from "./contract.ts";

const REASONS = {
  malformed: "Session token is malformed",
  bad_signature: "Session token signature is invalid",
  expired: "Session token has expired; open a new session",
} as const;

/** A browser cannot set headers on a WebSocket: its token rides as a subprotocol, `bearer.<token>`. */
function socketToken(protocols: string | undefined): string {
  const token = protocols
    ?.split(",")
    .map((p) => p.trim())
    .find((p) => p.startsWith(LIVE.tokenPrefix));
  return token ? `Bearer ${token.slice(LIVE.tokenPrefix.length)}` : "";
}

/**
 * Requires `Authorization: Bearer <session token>` (on a WebSocket upgrade, the `bearer.<token>`
 * subprotocol) and puts its claims in `c.var.claims`.
 */
export function sessionToken(): MiddlewareHandler<AppEnv> {
  const sessionTokenMiddleware: MiddlewareHandler<AppEnv> = async function sessionTokenMiddleware(c, next) {
    const header = c.req.header("authorization") ?? socketToken(c.req.header("sec-websocket-protocol"));
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match)
      throw new ApiError(
        401,
        "unauthorized",
        "Missing session token: send Authorization: Bearer <token> from POST /v1/sessions",
      );
    const result = await verifyToken(match[1], requireSecret(c.env));
    if (!result.ok) throw new ApiError(401, "unauthorized", REASONS[result.reason]);
    c.set("claims", result.claims);
    await next();
  };
  return withContract(sessionTokenMiddleware, { auth: "session", errors: [[401, "unauthorized"]] });
}
