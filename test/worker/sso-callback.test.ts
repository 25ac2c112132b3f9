import { afterEach, describe, expect, it } from "vitest";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { at, auditOf, browserOf, json } from "../helpers/worker/accounts.ts";
import { call } from "../helpers/worker/client.ts";
import type { SignInScript } from "../helpers/worker/oidc-script.ts";
import {
  atProvider,
  finishSso,
  issuerFor,
  ssoConfig,
  ssoSignIn,
  ssoSite,
  startSso,
  tokenLog,
} from "../helpers/worker/sso.ts";

afterEach(() => clearConfigCache());

const errorOf = async (res: Response) => ({ status: res.status, ...(await json(res)).error });
const lastSignIn = async (siteKey: string) => (await auditOf(siteKey, "action=sign_in"))[0];

describe("single sign-on: the callback signs in", () => {
  it("creates the account with the claim's role and records it; PKCE and the secret went to the provider", async () => {
    const issuer = issuerFor();
    const siteKey = await ssoSite(ssoConfig(issuer));
    const { res, url } = await ssoSignIn(siteKey);
    const ana = await browserOf(res);
    expect(ana.who).toMatchObject({ kind: "account", name: "Ana", role: "staff" });
    expect((await ana.get("/v1/admin/live")).status).toBe(200);
    expect((await ana.get("/v1/admin/agents")).status).toBe(403);
    // The browser went to the provider with state, nonce and an S256 challenge; never the verifier or the secret.
    const q = url.searchParams;
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(q.get("scope")).toBe("openid email profile");
    expect(q.get("redirect_uri")).toBe("http://127.0.0.1:8787/console/sso/callback");
    expect(url.toString()).not.toContain("test-client-secret");
    expect(await tokenLog(issuer)).toEqual([
      { auth: "basic", fields: ["code", "code_verifier", "grant_type", "redirect_uri"] },
    ]);
    const [signIn] = await auditOf(siteKey, "action=sign_in");
    expect(signIn).toMatchObject({ actorKind: "account", actorName: "Ana", object: "sso", outcome: "ok" });
    expect(await auditOf(siteKey, "action=account.create")).toMatchObject([{ actorName: "Ana", object: ana.who.id }]);
  });

  it("sets the binding cookie __Host-, HttpOnly, Secure and SameSite=Strict, for 10 minutes", async () => {
    const siteKey = await ssoSite();
    const { cookie } = await startSso(siteKey);
    expect(cookie).toMatch(/^__Host-parley-sso=[\w-]{43}$/);
    const { res } = await call(at("/v1/console/sso/start"), { method: "POST", json: { siteKey } });
    expect(res.status).toBe(200);
    const set = res.headers.get("set-cookie") ?? "";
    expect(set).toMatch(/Max-Age=600/);
    expect(set).toMatch(/Path=\//);
    expect(set).toMatch(/Secure/);
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Strict/);
  });

  it("sends the client's secret in the body to a provider that takes only that", async () => {
    const issuer = issuerFor("postauth");
    const siteKey = await ssoSite(ssoConfig(issuer));
    expect((await ssoSignIn(siteKey)).res.status).toBe(200);
    expect((await tokenLog(issuer))[0]).toMatchObject({ auth: "post" });
    expect((await tokenLog(issuer))[0].fields).toContain("client_secret");
  });
});

describe("single sign-on: the callback refuses, and the audit trail records each refusal", () => {
  /** A sign-in whose provider step follows `script`: the callback's error, and the audit entry it left. */
  async function refusedWith(script: SignInScript, config = {}) {
    const siteKey = await ssoSite(ssoConfig(issuerFor(), config));
    const { res } = await ssoSignIn(siteKey, script);
    const error = await errorOf(res);
    return { error, entry: await lastSignIn(siteKey), siteKey };
  }

  const cases: Array<[string, SignInScript, number, string, RegExp]> = [
    [
      "an id token from another issuer",
      { tweak: { iss: "https://idp.elsewhere.example" } },
      401,
      "sso_issuer",
      /another issuer/,
    ],
    ["another sign-in's nonce", { tweak: { nonce: "n".repeat(43) } }, 401, "sso_nonce", /nonce/],
    ["a token for another client", { tweak: { aud: "someone-else" } }, 401, "sso_token", /another client/],
    ["an expired token", { tweak: { exp: -600 } }, 401, "sso_token", /expired/],
    ["a token issued in the future", { tweak: { iat: 3600 } }, 401, "sso_token", /future/],
    ["an unsigned token (alg none)", { tweak: { alg: "none" } }, 401, "sso_token", /algorithm none/],
    ["an HMAC token (a public key used as a secret)", { tweak: { alg: "HS256" } }, 401, "sso_token", /HS256/],
    [
      "a token signed by a key the provider does not publish",
      { tweak: { key: "stranger" } },
      401,
      "sso_token",
      /signature/,
    ],
    [
      "a token naming a key the provider does not have",
      { tweak: { key: "unknown-kid" } },
      401,
      "sso_token",
      /does not publish/,
    ],
    ["an expired code", { tweak: { codeTtlMs: -1 } }, 401, "sso_code", /expired/],
    ["the provider's own refusal", { error: "access_denied" }, 401, "sso_denied", /access_denied/],
    [
      "an e-mail outside the allowed domains",
      { claims: { email: "eve@elsewhere.example" } },
      403,
      "sso_domain",
      /elsewhere\.example/,
    ],
    ["an unverified e-mail", { claims: { email_verified: false } }, 403, "sso_email", /verified/],
    ["no e-mail", { claims: { email: undefined } }, 403, "sso_email", /no e-mail/],
    ["groups that map to no role (default: refuse)", { claims: { groups: ["cafeteria"] } }, 403, "sso_role", /no role/],
  ];
  for (const [what, script, status, code, message] of cases)
    it(`${what}: ${status} ${code}`, async () => {
      const { error, entry } = await refusedWith(script);
      expect(error).toMatchObject({ status, code });
      expect(error.message).toMatch(message);
      expect(entry).toMatchObject({ action: "sign_in", object: "sso", outcome: "refused", code });
    });

  it("a domain refusal names who tried (the provider's subject and e-mail)", async () => {
    const { entry } = await refusedWith({ claims: { email: "eve@elsewhere.example" } });
    expect(entry).toMatchObject({ actorKind: "anonymous", actorId: "user-1", actorName: "eve@elsewhere.example" });
  });

  it("without email_verified: refused by default, let in where the site says its provider never sends it", async () => {
    expect((await refusedWith({ claims: { email_verified: undefined } })).error.code).toBe("sso_email");
    const siteKey = await ssoSite(ssoConfig(issuerFor(), { requireVerifiedEmail: false }));
    expect((await ssoSignIn(siteKey, { claims: { email_verified: undefined } })).res.status).toBe(200);
    const said = await ssoSignIn(siteKey, { claims: { email_verified: false } });
    expect((await errorOf(said.res)).code).toBe("sso_email");
  });

  it("a wrong state (another value, the same site): 401 sso_state", async () => {
    const siteKey = await ssoSite();
    const { url, cookie } = await startSso(siteKey);
    const back = await atProvider(url, { claims: { email: "ana@clinic.example", email_verified: true } });
    const forged = back.state.replace(/\.[\w-]+$/, `.${"A".repeat(43)}`);
    const res = await finishSso({ state: forged, code: back.code }, cookie);
    expect(await errorOf(res)).toMatchObject({ status: 401, code: "sso_state" });
    expect(await lastSignIn(siteKey)).toMatchObject({ outcome: "refused", code: "sso_state" });
  });

  it("a state used once already: 401 sso_state (the callback answers once)", async () => {
    const siteKey = await ssoSite();
    const { res, back, cookie } = await ssoSignIn(siteKey);
    expect(res.status).toBe(200);
    const again = await finishSso({ state: back.state, code: back.code }, cookie);
    expect(await errorOf(again)).toMatchObject({ status: 401, code: "sso_state" });
  });

  it("a callback from another browser (no binding cookie, or another's): 401 sso_state", async () => {
    const siteKey = await ssoSite();
    for (const cookie of ["", `__Host-parley-sso=${"B".repeat(43)}`]) {
      const { url } = await startSso(siteKey);
      const back = await atProvider(url, { claims: { email: "ana@clinic.example", email_verified: true } });
      const res = await finishSso({ state: back.state, code: back.code }, cookie);
      expect(await errorOf(res)).toMatchObject({ status: 401, code: "sso_state", message: /another browser/ });
    }
  });

  it("a code issued for another sign-in's PKCE challenge: 401 sso_code (the verifier does not match)", async () => {
    const siteKey = await ssoSite();
    const first = await startSso(siteKey);
    const stolen = await atProvider(first.url, { claims: { email: "ana@clinic.example", email_verified: true } });
    const second = await startSso(siteKey, first.cookie);
    const res = await finishSso({ state: second.url.searchParams.get("state"), code: stolen.code }, second.cookie);
    const error = await errorOf(res);
    expect(error).toMatchObject({ status: 401, code: "sso_code" });
    expect(error.message).toMatch(/PKCE/);
  });

  it("a body that is not a callback's: 400 validation_failed, never a 500", async () => {
    const res = await finishSso({ state: "x", code: 3 }, "");
    expect(await errorOf(res)).toMatchObject({ status: 400, code: "validation_failed" });
    const unknownSite = await finishSso({ state: `bm9wZQ.${"A".repeat(43)}`, code: "c" }, "");
    expect(await errorOf(unknownSite)).toMatchObject({ status: 401, code: "sso_state" });
  });
});
