import type { MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AuditOutcome } from "../../shared/admin/audit.ts";
import { ruleFor } from "../../shared/wire/route-permissions.ts";
import { can, FRESH_AUTH_MS } from "../../shared/admin/roles.ts";
import { ApiError } from "../errors.ts";
import { actorRef, auditRequest } from "../audit/record-audit.ts";
import type { AdminEnv } from "./admin-key.ts";

/** What became of a request, for its audit entry: refused (4xx), failed (5xx), or ok. */
function outcomeOf(status: number): AuditOutcome {
  return status >= 500 ? "failed" : status >= 400 ? "refused" : "ok";
}

/**
 * Enforces the permission table (shared/wire/route-permissions.ts) after the admin middleware found the
 * actor: the role must grant the route's permission (403 role_forbidden), `self` routes need an
 * account (403 account_required), and `fresh` ones a sign-in within FRESH_AUTH_MS (403
 * reauth_required). A route missing from the table is refused: the table fails closed. Every refusal
 * here, and every call of a route the table marks for auditing, is recorded with its outcome.
 */
export function routePermission(): MiddlewareHandler<AdminEnv> {
  return async function routePermissionMiddleware(c, next) {
    const actor = c.var.actor;
    const siteKey = c.var.site.siteKey;
    const found = ruleFor(c.req.method, c.req.path);
    const object = found ? Object.values(found.params).join("/") : c.req.path;
    const refuse = async (err: ApiError) => {
      await auditRequest(c, siteKey, {
        actor: actorRef(actor),
        action: found?.rule.audit ?? "permission.denied",
        object,
        outcome: "refused",
        code: err.code,
      });
      return err;
    };
    if (!found) throw await refuse(new ApiError(403, "role_forbidden", `${c.req.method} ${c.req.path} is no one's`));
    const { rule } = found;
    if (rule.need === "self" && actor.kind !== "account")
      throw await refuse(new ApiError(403, "account_required", "This route is for a signed-in account's own passkeys"));
    if (!can(actor.role, rule.need))
      throw await refuse(
        new ApiError(403, "role_forbidden", `The ${actor.role} role may not do this (it needs "${rule.need}")`),
      );
    if (rule.fresh && Date.now() - actor.authAt > FRESH_AUTH_MS)
      throw await refuse(
        new ApiError(
          403,
          "reauth_required",
          "Sign in again (a passkey, or the admin key) to do this: the last was over 10 minutes ago",
        ),
      );
    await next();
    if (!rule.audit) return;
    const err = c.error;
    const code = err instanceof ApiError ? err.code : err instanceof HTTPException ? String(err.status) : "";
    await auditRequest(c, siteKey, {
      actor: actorRef(actor),
      action: rule.audit,
      object,
      outcome: outcomeOf(c.res.status),
      code: c.res.status >= 400 ? code || String(c.res.status) : "",
    });
  };
}
