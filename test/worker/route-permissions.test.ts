import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../worker/app.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { ROUTE_PERMISSIONS, type RouteKey } from "../../shared/wire/route-permissions.ts";
import { can, ROLES, type Role } from "../../shared/admin/roles.ts";
import { accountsSite, json, member, namedKey, withKey, type Browser } from "../helpers/worker/accounts.ts";

afterEach(() => clearConfigCache());

/** Every admin and console route the app serves, as "METHOD pattern" (hono lists its routes). */
const served = createApp()
  .routes.filter((r) => r.method !== "ALL" && /^\/v1\/(admin|console)\//.test(r.path))
  .map((r) => `${r.method} ${r.path}` as RouteKey);
const table = Object.keys(ROUTE_PERMISSIONS) as RouteKey[];
const adminRoutes = table.filter((k) => k.split(" ")[1].startsWith("/v1/admin/"));

/** A path for the pattern with ids that name nothing (an allowed call then ends in 404 or 400, changing nothing). */
const pathOf = (pattern: string) => pattern.replace(/:(\w+)/g, (_m, name: string) => `no-such-${name}`);

describe("the permission table", () => {
  it("has an entry for every admin and console route the app serves, and none for a route it does not", () => {
    const missing = served.filter((k) => !(k in ROUTE_PERMISSIONS));
    expect(missing, "routes without a permission entry (add them to shared/wire/route-permissions.ts)").toEqual([]);
    expect(table.filter((k) => !served.includes(k))).toEqual([]);
    expect(served.length).toBeGreaterThan(60);
  });

  describe("walked for every role, by an account's console session and by a named admin key", () => {
    let siteKey = "";
    const sessions = {} as Record<Role, Browser>;
    const keys = {} as Record<Role, string>;
    beforeAll(async () => {
      siteKey = await accountsSite();
      for (const role of ROLES) {
        sessions[role] = (await member(siteKey, role)).browser;
        keys[role] = await namedKey(siteKey, role);
      }
    });

    for (const role of ROLES)
      it(`${role}: allowed where the table grants it, 403 role_forbidden everywhere else`, async () => {
        const verdicts: string[] = [];
        for (const key of adminRoutes) {
          const [method, pattern] = key.split(" ");
          const rule = ROUTE_PERMISSIONS[key];
          const path = pathOf(pattern);
          const body = method === "GET" || method === "DELETE" ? undefined : {};
          const viaSession =
            method === "GET" ? await sessions[role].get(path) : await sessions[role].send(method, path, body);
          const viaKey = await withKey(siteKey, method, path, body, keys[role]);
          for (const [how, res] of [
            ["session", viaSession],
            ["key", viaKey],
          ] as const) {
            const code = res.status === 403 ? (await json(res.clone())).error.code : "";
            const accountOnly = rule.need === "self" && how === "key";
            const expected = !can(role, rule.need) ? "role_forbidden" : accountOnly ? "account_required" : "";
            const got = code === "role_forbidden" || code === "account_required" ? code : "";
            if (got !== expected)
              verdicts.push(`${how} ${key}: expected ${expected || "allowed"}, got ${res.status} ${code}`);
          }
        }
        expect(verdicts).toEqual([]);
        // About 140 requests (every admin route, by session and by key): over a test's default 5 s on a busy machine.
      }, 60_000);

    it("signed-in console routes answer every role's session", async () => {
      for (const role of ROLES) {
        const res = await sessions[role].get("/v1/console/session");
        expect(res.status).toBe(200);
        expect((await json(res)).who.role).toBe(role);
      }
    });
  });

  it("fails closed: an admin path with no entry is refused, whoever asks", async () => {
    const siteKey = await accountsSite();
    const res = await withKey(siteKey, "GET", "/v1/admin/not-a-route");
    expect(res.status).toBe(403);
    expect((await json(res)).error.code).toBe("role_forbidden");
  });
});
