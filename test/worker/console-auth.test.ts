import { afterEach, describe, expect, it } from "vitest";
import { call, ORIGIN } from "../helpers/worker/client.ts";
import { putSite, sha256Hex } from "../helpers/worker/sites.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { ADMIN_PER_MINUTE } from "../../worker/limits/admission.ts";

afterEach(() => clearConfigCache());

/** Absolute URLs on the worker's origin: console writes must carry the Origin they are sent to. */
const at = (path: string) => `${ORIGIN}${path}`;
const json = async (r: Response) => (await r.json()) as any;
const ADMIN = "owner-key-" + "c".repeat(20);
const siteWithAdmin = async (key = ADMIN) => putSite({ adminKeySha256: await sha256Hex(key) });
/** A client address of its own per test, so the sign-in limit of one test never reaches another. */
const ip = () => `10.200.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;

async function signIn(siteKey: string, adminKey = ADMIN, headers: Record<string, string> = {}) {
  const { res } = await call(at("/v1/console/session"), { method: "POST", json: { siteKey, adminKey }, headers });
  return res;
}

/** Signs in and returns what a browser would hold: the cookie (name=value) and the CSRF token. */
async function session(siteKey: string) {
  const res = await signIn(siteKey);
  expect(res.status).toBe(200);
  const cookie = res.headers.get("set-cookie")!.split(";")[0];
  return { cookie, csrf: (await json(res)).csrf as string, setCookie: res.headers.get("set-cookie")! };
}

describe("console session (cookie auth for the owner's console)", () => {
  it(
    "exchanges the site key and admin key for a __Host- " + "cookie: HttpOnly, Secure, SameSite=Strict, Path=/",
    async () => {
      const siteKey = await siteWithAdmin();
      const res = await signIn(siteKey);
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body).toEqual({
        site: siteKey,
        csrf: expect.any(String),
        expiresAt: expect.any(Number),
        who: { kind: "bootstrap", id: "bootstrap", name: "Owner", role: "owner" },
      });
      expect(JSON.stringify(body)).not.toContain(ADMIN);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const set = res.headers.get("set-cookie")!;
      expect(set).toMatch(/^__Host-parley-console=[\w-]+\.[\w-]+\.[\w-]+;/);
      const attrs = set.split(/;\s*/).slice(1);
      expect(attrs).toEqual(expect.arrayContaining(["HttpOnly", "Secure", "SameSite=Strict", "Path=/"]));
      expect(attrs.some((a) => /^domain=/i.test(a))).toBe(false);
      const maxAge = Number(attrs.find((a) => a.startsWith("Max-Age="))!.slice(8));
      expect(maxAge).toBeGreaterThan(0);
      expect(maxAge).toBeLessThanOrEqual(8 * 3600);
      expect(body.expiresAt - Date.now()).toBeLessThanOrEqual(maxAge * 1000 + 1000);
      // The key is never in the cookie either.
      expect(atob(set.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))).not.toContain(ADMIN);
    },
  );

  it("refuses a wrong key with 401 and a sign-in from another origin with 403", async () => {
    const siteKey = await siteWithAdmin();
    const wrong = await signIn(siteKey, "not-the-key-at-all-000000");
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("set-cookie")).toBeNull();
    expect((await json(wrong)).error.code).toBe("unauthorized");
    const unknown = await signIn("no-such-site", ADMIN);
    expect(unknown.status).toBe(401);
    const cross = await signIn(siteKey, ADMIN, { origin: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect((await json(cross)).error.code).toBe("forbidden_origin");
    const bad = await call(at("/v1/console/session"), { method: "POST", json: { siteKey } });
    expect(bad.res.status).toBe(400);
    expect((await json(bad.res)).error.code).toBe("validation_failed");
  });

  it("rate limits sign-in like the admin key: wrong or right, the next try past the limit is a 429", async () => {
    const siteKey = await siteWithAdmin();
    const from = { "cf-connecting-ip": ip() };
    for (let i = 0; i < ADMIN_PER_MINUTE; i++) expect((await signIn(siteKey, `wrong-key-${i}`, from)).status).toBe(401);
    const over = await signIn(siteKey, ADMIN, from);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(over.headers.get("set-cookie")).toBeNull();
    // The admin-key header shares the same count.
    const header = await call(at(`/v1/admin/sessions?site=${siteKey}`), {
      headers: { ...from, "x-parley-admin-key": ADMIN },
    });
    expect(header.res.status).toBe(429);
    expect((await signIn(siteKey, ADMIN, { "cf-connecting-ip": ip() })).status).toBe(200);
  });

  it(
    "opens the admin routes with the cookie: reads with it alone, " + "writes only with the CSRF header and own Origin",
    async () => {
      const siteKey = await siteWithAdmin();
      const { cookie, csrf } = await session(siteKey);
      const list = await call(at("/v1/admin/sessions"), { headers: { cookie } });
      expect(list.res.status).toBe(200);
      expect((await json(list.res)).site).toBe(siteKey);
      const me = await call(at("/v1/console/session"), { headers: { cookie } });
      expect((await json(me.res)).csrf).toBe(csrf);

      const write = (headers: Record<string, string>) =>
        call(at("/v1/admin/desk/derm-consult/notes"), {
          method: "POST",
          json: { text: "" },
          headers: { cookie, ...headers },
        });
      const noCsrf = await write({});
      expect(noCsrf.res.status).toBe(403);
      expect((await json(noCsrf.res)).error.code).toBe("forbidden");
      expect((await write({ "x-parley-csrf": csrf.slice(1) + "A" })).res.status).toBe(403);
      const crossOrigin = await write({ "x-parley-csrf": csrf, origin: "https://evil.example" });
      expect(crossOrigin.res.status).toBe(403);
      expect((await json(crossOrigin.res)).error.code).toBe("forbidden_origin");
      // With both, the request passes auth and reaches the route, whose validator refuses the empty note.
      const ok = await write({ "x-parley-csrf": csrf });
      expect(ok.res.status).toBe(400);
      expect((await json(ok.res)).error.code).toBe("validation_failed");
    },
  );

  it("opens only its own site: another site's ?site= is 403, and a forged or foreign cookie is 401", async () => {
    const mine = await siteWithAdmin();
    const other = await siteWithAdmin("other-owner-key-" + "o".repeat(16));
    const { cookie } = await session(mine);
    const cross = await call(at(`/v1/admin/sessions?site=${other}`), { headers: { cookie } });
    expect(cross.res.status).toBe(403);
    expect((await json(cross.res)).error.code).toBe("forbidden");
    const [name, value] = cookie.split("=");
    const [h, p, s] = value.split(".");
    const claims = JSON.parse(atob(p.replace(/-/g, "+").replace(/_/g, "/")));
    const forgedPayload = btoa(JSON.stringify({ ...claims, site: other }))
      .replace(/=+$/, "")
      .replace(/\+/g, "-")
      .replace(/\//g, "_");
    const forged = await call(at("/v1/admin/sessions"), { headers: { cookie: `${name}=${h}.${forgedPayload}.${s}` } });
    expect(forged.res.status).toBe(401);
    // A cookie without the __Host- prefix (one a subdomain could have set) is not read at all.
    const unprefixed = await call(at("/v1/admin/sessions"), { headers: { cookie: `parley-console=${value}` } });
    expect(unprefixed.res.status).toBe(401);
  });

  it("signs out server-side: the same cookie, copied before, no longer opens anything", async () => {
    const siteKey = await siteWithAdmin();
    const { cookie, csrf } = await session(siteKey);
    const other = await session(siteKey);
    const noCsrf = await call(at("/v1/console/session"), { method: "DELETE", headers: { cookie } });
    expect(noCsrf.res.status).toBe(403);
    const out = await call(at("/v1/console/session"), { method: "DELETE", headers: { cookie, "x-parley-csrf": csrf } });
    expect(out.res.status).toBe(204);
    expect(out.res.headers.get("set-cookie")).toMatch(/^__Host-parley-console=;.*Max-Age=0/);
    expect((await call(at("/v1/admin/sessions"), { headers: { cookie } })).res.status).toBe(401);
    expect((await call(at("/v1/console/session"), { headers: { cookie } })).res.status).toBe(401);
    // Another signed-in session of the same site goes on.
    expect((await call(at("/v1/admin/sessions"), { headers: { cookie: other.cookie } })).res.status).toBe(200);
  });

  it("ends every console session when the site's admin key is changed", async () => {
    const siteKey = await siteWithAdmin();
    const { cookie } = await session(siteKey);
    await putSite({ siteKey, adminKeySha256: await sha256Hex("a-new-owner-key-" + "n".repeat(16)) });
    expect((await call(at("/v1/admin/sessions"), { headers: { cookie } })).res.status).toBe(401);
  });

  it("serves the console page at /console and deep links, under the strict page policy, framed by no one", async () => {
    for (const path of ["/console", "/console/conversations", "/console/conversations/abc"]) {
      const { res } = await call(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/text\/html/);
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("require-trusted-types-for 'script'");
      expect(csp).not.toContain("unsafe-inline");
      const html = await res.text();
      expect(html).toContain('<script type="module" src="/console/console.js"></script>');
      expect(html).not.toMatch(/<script>|<script type="module">/);
    }
    expect(await (await call(at("/console"), { headers: { "accept-language": "zh-CN,zh" } })).res.text()).toContain(
      'lang="zh-CN"',
    );
  });
});
