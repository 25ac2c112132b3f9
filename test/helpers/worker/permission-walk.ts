import { expect } from "vitest";
import { ROUTE_PERMISSIONS, type RouteKey } from "../../../shared/wire/route-permissions.ts";
import { can, type Role } from "../../../shared/admin/roles.ts";
import { accountsSite, json, member, namedKey, withKey } from "./accounts.ts";

const table = Object.keys(ROUTE_PERMISSIONS) as RouteKey[];
const adminRoutes = table.filter((k) => k.split(" ")[1].startsWith("/v1/admin/"));

/** A path for the pattern with ids that name nothing (an allowed call then ends in 404 or 400, changing nothing). */
const pathOf = (pattern: string) => pattern.replace(/:(\w+)/g, (_m, name: string) => `no-such-${name}`);

/**
 * Every admin route, called by an account of the role through its console session and by a named admin
 * key of the role: allowed where the table grants it, 403 role_forbidden (or account_required for an
 * account's own routes by key) everywhere else. One file per role, so the four walks run side by side.
 */
export async function walkPermissions(role: Role): Promise<void> {
  const siteKey = await accountsSite();
  const session = (await member(siteKey, role)).browser;
  const key = await namedKey(siteKey, role);
  const verdicts: string[] = [];
  for (const route of adminRoutes) {
    const [method, pattern] = route.split(" ");
    const rule = ROUTE_PERMISSIONS[route];
    const path = pathOf(pattern);
    const body = method === "GET" || method === "DELETE" ? undefined : {};
    const viaSession = method === "GET" ? await session.get(path) : await session.send(method, path, body);
    const viaKey = await withKey(siteKey, method, path, body, key);
    for (const [how, res] of [
      ["session", viaSession],
      ["key", viaKey],
    ] as const) {
      const code = res.status === 403 ? (await json(res.clone())).error.code : "";
      const accountOnly = rule.need === "self" && how === "key";
      const expected = !can(role, rule.need) ? "role_forbidden" : accountOnly ? "account_required" : "";
      const got = code === "role_forbidden" || code === "account_required" ? code : "";
      if (got !== expected)
        verdicts.push(`${how} ${route}: expected ${expected || "allowed"}, got ${res.status} ${code}`);
    }
  }
  expect(verdicts).toEqual([]);
  // A session of the role answers the console's signed-in routes as that role.
  const res = await session.get("/v1/console/session");
  expect(res.status).toBe(200);
  expect((await json(res)).who.role).toBe(role);
}
