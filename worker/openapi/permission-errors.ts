import { ROUTE_PERMISSIONS, type RouteKey } from "../../shared/wire/route-permissions.ts";
import type { ErrorAnswer } from "../middleware/contract.ts";

/**
 * The errors the permission table (shared/wire/route-permissions.ts) adds to a route, read from its
 * entry: a route marked `fresh` may answer 403 reauth_required. Read, not listed by hand per route, so a
 * route made fresh in the table is documented so at once.
 */
export function permissionErrors(method: string, path: string): ErrorAnswer[] {
  const rule = ROUTE_PERMISSIONS[`${method} ${path}` as RouteKey];
  return rule?.fresh ? [[403, "reauth_required"]] : [];
}
