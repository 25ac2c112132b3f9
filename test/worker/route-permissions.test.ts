import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../worker/app.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { ROUTE_PERMISSIONS, type RouteKey } from "../../shared/wire/route-permissions.ts";
import { accountsSite, json, withKey } from "../helpers/worker/accounts.ts";

afterEach(() => clearConfigCache());

/** Every admin and console route the app serves, as "METHOD pattern" (hono lists its routes). */
const served = createApp()
  .routes.filter((r) => r.method !== "ALL" && /^\/v1\/(admin|console)\//.test(r.path))
  .map((r) => `${r.method} ${r.path}` as RouteKey);
const table = Object.keys(ROUTE_PERMISSIONS) as RouteKey[];

// Each role's walk of every admin route is a file of its own: route-permissions/<role>.test.ts.
describe("the permission table", () => {
  it("has an entry for every admin and console route the app serves, and none for a route it does not", () => {
    const missing = served.filter((k) => !(k in ROUTE_PERMISSIONS));
    expect(missing, "routes without a permission entry (add them to shared/wire/route-permissions.ts)").toEqual([]);
    expect(table.filter((k) => !served.includes(k))).toEqual([]);
    expect(served.length).toBeGreaterThan(60);
  });

  it("fails closed: an admin path with no entry is refused, whoever asks", async () => {
    const siteKey = await accountsSite();
    const res = await withKey(siteKey, "GET", "/v1/admin/not-a-route");
    expect(res.status).toBe(403);
    expect((await json(res)).error.code).toBe("role_forbidden");
  });
});
