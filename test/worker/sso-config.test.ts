import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, inject, it } from "vitest";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { forgetProviders } from "../../worker/accounts/oidc-discovery.ts";
import { accountsSite, at, browserOf, BOOT_KEY, freshIp, json, member, withKey } from "../helpers/worker/accounts.ts";
import { call } from "../helpers/worker/client.ts";
import { issuerFor, ssoConfig, ssoSignIn, ssoSite, startSso } from "../helpers/worker/sso.ts";
import { siteAccounts } from "../../worker/objects.ts";

afterEach(() => {
  clearConfigCache();
  forgetProviders();
});

/** The site's SSO settings set by its bootstrap key; `vars` for a worker as deployed (`{ DEMO_MODE: "" }`). */
async function put(siteKey: string, body: unknown, vars = {}) {
  const url = at(`/v1/admin/sso?site=${siteKey}`);
  const headers = { "x-parley-admin-key": BOOT_KEY, "cf-connecting-ip": freshIp() };
  return (await call(url, { method: "PUT", json: body, headers }, vars)).res;
}
const issues = async (res: Response) => {
  expect(res.status).toBe(400);
  const { error } = await json(res);
  expect(error.code).toBe("validation_failed");
  return error.issues as Array<{ path: string; message: string }>;
};

describe("single sign-on settings", () => {
  it("are set once the issuer's discovery answers; read back with the redirect URI, never the secret", async () => {
    const siteKey = await accountsSite();
    const issuer = issuerFor();
    const res = await put(siteKey, ssoConfig(issuer));
    expect(res.status).toBe(200);
    const view = await json(await withKey(siteKey, "GET", "/v1/admin/sso"));
    expect(view).toMatchObject({
      sso: { issuer, clientSecretEnv: "OIDC_TEST_SECRET", defaultRole: "refuse", requireVerifiedEmail: true },
      redirectUri: "http://127.0.0.1:8787/console/sso/callback",
      secretSet: true,
    });
    expect(JSON.stringify(view)).not.toContain("test-client-secret");
    const site = await json(await withKey(siteKey, "GET", "/v1/admin/site"));
    expect(JSON.stringify(site)).not.toContain("test-client-secret");
    // The sign-in page learns the button's name, and nothing else.
    const info = await call(at(`/v1/console/sso?site=${siteKey}`));
    expect(await json(info.res)).toEqual({ name: "Clinic ID" });
  });

  it("take the issuer as its discovery document writes it when they differ by a slash at the end", async () => {
    const siteKey = await accountsSite();
    const issuer = issuerFor();
    expect((await put(siteKey, ssoConfig(`${issuer}/`))).status).toBe(200);
    expect((await json(await withKey(siteKey, "GET", "/v1/admin/sso"))).sso.issuer).toBe(issuer);
  });

  it("refuse the secret itself where its worker secret's name goes, and a name whose secret is not set", async () => {
    const siteKey = await accountsSite();
    const pasted = await issues(await put(siteKey, ssoConfig(issuerFor(), { clientSecretEnv: "s3cr3t-value-XYZ" })));
    expect(pasted[0]).toMatchObject({ path: "clientSecretEnv", message: expect.stringMatching(/OIDC_…SECRET/) });
    const unset = await issues(await put(siteKey, ssoConfig(issuerFor(), { clientSecretEnv: "OIDC_NOT_SET_SECRET" })));
    expect(unset[0]).toMatchObject({ path: "clientSecretEnv", message: expect.stringMatching(/is not set/) });
  });

  it("refuse an issuer whose discovery document names another issuer, or offers no S256 PKCE", async () => {
    const siteKey = await accountsSite();
    const impostor = await issues(await put(siteKey, ssoConfig(issuerFor("impostor"))));
    expect(impostor[0]).toMatchObject({ path: "issuer", message: expect.stringMatching(/names the issuer/) });
    const plain = await issues(await put(siteKey, ssoConfig(issuerFor("plainpkce"))));
    expect(plain[0]).toMatchObject({ path: "issuer", message: expect.stringMatching(/S256/) });
    const gone = await issues(await put(siteKey, ssoConfig(`${inject("oidcIssuerUrl")}/x/none/here`)));
    expect(gone[0]).toMatchObject({ path: "issuer", message: expect.stringMatching(/answered 404/) });
  });

  it("refuse private and link-local issuers; loopback ones too on a deployed worker (demo mode only)", async () => {
    const siteKey = await accountsSite();
    for (const issuer of ["https://10.0.0.5", "https://169.254.169.254/latest", "http://idp.example.com"])
      expect((await issues(await put(siteKey, ssoConfig(issuer))))[0].path).toBe("issuer");
    const deployed = await issues(await put(siteKey, ssoConfig(issuerFor()), { DEMO_MODE: "" }));
    expect(deployed[0].message).toMatch(/loopback/);
  });

  it("refuse a config without an allowed domain, a bad claim name, an unknown role", async () => {
    const siteKey = await accountsSite();
    const bad = await issues(
      await put(siteKey, {
        ...ssoConfig(issuerFor()),
        allowedDomains: [],
        roleClaim: "groups; drop",
        roleMap: [{ value: "x", role: "admin" }],
      }),
    );
    expect(bad.map((i) => i.path).sort()).toEqual(["allowedDomains", "roleClaim", "roleMap.0.role"]);
  });

  it("are owners' only, and changing them asks for a fresh sign-in", async () => {
    const siteKey = await accountsSite();
    const { browser: editor } = await member(siteKey, "editor");
    const res = await editor.send("PUT", "/v1/admin/sso", ssoConfig(issuerFor()));
    expect((await json(res)).error.code).toBe("role_forbidden");
    expect((await editor.get("/v1/admin/sso")).status).toBe(403);
    const { browser: owner } = await member(siteKey, "owner");
    await runInDurableObject(siteAccounts(env, siteKey), (_o, state) => {
      state.storage.sql.exec("UPDATE console_sessions SET auth_at = auth_at - 11 * 60000");
    });
    const stale = await owner.send("PUT", "/v1/admin/sso", ssoConfig(issuerFor()));
    expect((await json(stale)).error.code).toBe("reauth_required");
    expect((await owner.get("/v1/admin/sso")).status).toBe(200);
    // Two accounts made with software passkeys: over a test's default 5 s on a busy machine.
  }, 20_000);

  it("off: the sign-in is refused (404 sso_off) and the sessions of accounts linked to the provider end", async () => {
    const siteKey = await ssoSite();
    const ana = await browserOf((await ssoSignIn(siteKey)).res);
    expect((await ana.get("/v1/admin/me")).status).toBe(200);
    expect((await withKey(siteKey, "DELETE", "/v1/admin/sso")).status).toBe(204);
    expect((await ana.get("/v1/admin/me")).status).toBe(401);
    await expect(startSso(siteKey)).rejects.toThrow(/404/);
    const info = await call(at(`/v1/console/sso?site=${siteKey}`));
    expect((await json(info.res)).error.code).toBe("sso_off");
  });
});
