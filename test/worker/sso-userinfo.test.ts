import { afterEach, describe, expect, it } from "vitest";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { auditOf, browserOf, json } from "../helpers/worker/accounts.ts";
import type { SignInScript } from "../helpers/worker/oidc-script.ts";
import { issuerFor, ssoConfig, ssoSignIn, ssoSite, tokenLog } from "../helpers/worker/sso.ts";

afterEach(() => clearConfigCache());

const errorOf = async (res: Response) => ({ status: res.status, ...(await json(res)).error });
/** A site of its own provider tenant: its key, and how often the worker read that tenant's userinfo. */
async function site() {
  const issuer = issuerFor();
  const siteKey = await ssoSite(ssoConfig(issuer));
  const userinfoCalls = async () => (await tokenLog(issuer)).filter((e) => e.auth === "userinfo").length;
  return { siteKey, userinfoCalls };
}
/** An id token without the role claim (as Google's, or Entra's with too many groups), and what userinfo says. */
const groupsOnlyThere = (userinfo: Record<string, unknown>, more: SignInScript = {}): SignInScript => ({
  ...more,
  claims: { groups: undefined, ...more.claims },
  userinfo,
});

describe("single sign-on reads the provider's userinfo for claims the id token lacks", () => {
  it("maps the role from a group claim that only userinfo gives", async () => {
    const { siteKey, userinfoCalls } = await site();
    const ed = await browserOf((await ssoSignIn(siteKey, groupsOnlyThere({ groups: ["parley-editors"] }))).res);
    expect(ed.who).toMatchObject({ name: "Ana", role: "editor" });
    expect(await userinfoCalls()).toBe(1);
  });

  it("takes the e-mail and its verification from userinfo together, when the id token has no e-mail", async () => {
    const { siteKey } = await site();
    const script = {
      claims: { email: undefined, email_verified: undefined },
      userinfo: { email: "Ana@clinic.example", email_verified: true },
    };
    const ana = await browserOf((await ssoSignIn(siteKey, script)).res);
    expect(ana.who).toMatchObject({ name: "Ana", role: "staff" });
    // The id token's own unverified address is not vouched for by userinfo's `email_verified`.
    const mixed = groupsOnlyThere(
      { email_verified: true, groups: ["parley-staff"] },
      { claims: { email_verified: undefined } },
    );
    expect(await errorOf((await ssoSignIn(siteKey, mixed)).res)).toMatchObject({ status: 403, code: "sso_email" });
  });

  it("does not call it when the id token has the e-mail and the role claim", async () => {
    const { siteKey, userinfoCalls } = await site();
    expect((await ssoSignIn(siteKey)).res.status).toBe(200);
    expect(await userinfoCalls()).toBe(0);
  });

  it("refuses an answer for another user than the id token's (OIDC Core 5.3.2), naming the subject", async () => {
    const { siteKey } = await site();
    const other = groupsOnlyThere({ sub: "someone-else", groups: ["parley-owners"] });
    const { res } = await ssoSignIn(siteKey, other);
    expect(await errorOf(res)).toMatchObject({
      status: 401,
      code: "sso_userinfo",
      message: expect.stringMatching(/another user/),
    });
    expect((await auditOf(siteKey, "action=sign_in"))[0]).toMatchObject({
      outcome: "refused",
      code: "sso_userinfo",
      actorId: "user-1",
    });
  });

  it("stops with a clear error when userinfo fails, answers a signed JWT, or never answers (5 s)", async () => {
    const { siteKey } = await site();
    const groups = { groups: ["parley-staff"] };
    const failed = await ssoSignIn(siteKey, groupsOnlyThere(groups, { tweak: { userinfo: "error" } }));
    expect(await errorOf(failed.res)).toMatchObject({
      status: 502,
      code: "sso_userinfo",
      message: expect.stringMatching(/answered 500/),
    });
    const jwt = await ssoSignIn(siteKey, groupsOnlyThere(groups, { tweak: { userinfo: "jwt" } }));
    expect(await errorOf(jwt.res)).toMatchObject({
      status: 502,
      code: "sso_userinfo",
      message: expect.stringMatching(/not JSON/),
    });
    const started = Date.now();
    const hang = await ssoSignIn(siteKey, groupsOnlyThere(groups, { tweak: { userinfo: "hang" } }));
    expect(await errorOf(hang.res)).toMatchObject({
      status: 502,
      code: "sso_userinfo",
      message: expect.stringMatching(/within 5 s/),
    });
    expect(Date.now() - started).toBeLessThan(12_000);
    const entries = await auditOf(siteKey, "action=sign_in");
    expect(entries.slice(0, 3).map((e) => [e.outcome, e.code])).toEqual(Array(3).fill(["failed", "sso_userinfo"]));
  });
});
