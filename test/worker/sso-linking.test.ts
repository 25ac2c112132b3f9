import { afterEach, describe, expect, it } from "vitest";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { accept, auditOf, browserOf, json, passkeySignIn, withKey, type Browser } from "../helpers/worker/accounts.ts";
import type { SignInScript } from "../helpers/worker/oidc-script.ts";
import { issuerFor, ssoConfig, ssoSignIn, ssoSite } from "../helpers/worker/sso.ts";

afterEach(() => clearConfigCache());

const errorOf = async (res: Response) => ({ status: res.status, ...(await json(res)).error });
const team = async (siteKey: string) => json(await withKey(siteKey, "GET", "/v1/admin/accounts"));
/** Mei at the provider: her verified address, in no mapped group (her role is the one an owner chose). */
const MEI = { email: "mei@clinic.example", email_verified: true, name: "Mei (IdP)", groups: [] as string[] };
const mei = (claims: Record<string, unknown> = {}, more: SignInScript = {}): SignInScript => ({
  ...more,
  claims: { ...MEI, sub: "idp-mei", ...claims },
});

/** An account made from an invitation for Mei's address, with its passkey: its browser and passkey. */
async function meiByInvitation(siteKey: string, role = "editor") {
  const res = await withKey(siteKey, "POST", "/v1/admin/invitations", { role, email: "Mei@clinic.example" });
  expect(res.status).toBe(201);
  const { token } = await json(res);
  const made = await accept(siteKey, token, "Mei");
  return { browser: await browserOf(made.res), passkey: made.passkey };
}

describe("single sign-on meets an account that exists", () => {
  it("links the provider's user to the invited account by its verified e-mail: one account, two ways in", async () => {
    const siteKey = await ssoSite();
    const { browser: byPasskey, passkey } = await meiByInvitation(siteKey);
    const bySso = await browserOf((await ssoSignIn(siteKey, mei())).res);
    expect(bySso.who).toMatchObject({ kind: "account", id: byPasskey.who.id, name: "Mei", role: "editor" });
    const { accounts } = await team(siteKey);
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ email: "mei@clinic.example", passkeys: 1, sso: true });
    expect(accounts[0].identities).toMatchObject([{ issuer: expect.stringContaining("/idp-"), email: MEI.email }]);
    expect(await auditOf(siteKey, "action=identity.link")).toMatchObject([
      { actorId: byPasskey.who.id, object: byPasskey.who.id, outcome: "ok" },
    ]);
    expect(await auditOf(siteKey, "action=account.create")).toEqual([]);
    // Both ways in keep working, into the same account; the next SSO sign-in finds it by the link.
    const again = await browserOf((await passkeySignIn(siteKey, passkey)).res);
    expect(again.who.id).toBe(byPasskey.who.id);
    expect((await browserOf((await ssoSignIn(siteKey, mei())).res)).who.id).toBe(byPasskey.who.id);
    expect((await team(siteKey)).accounts).toHaveLength(1);
    expect(await auditOf(siteKey, "action=identity.link")).toHaveLength(1);
  });

  it("applies the claim's role at the link, and keeps the site's last owner an owner", async () => {
    const siteKey = await ssoSite();
    const { browser } = await meiByInvitation(siteKey, "owner");
    const linked = await browserOf((await ssoSignIn(siteKey, mei({ groups: ["parley-staff"] }))).res);
    expect(linked.who).toMatchObject({ id: browser.who.id, role: "owner" });
    expect((await auditOf(siteKey, "action=account.role"))[0]).toMatchObject({
      outcome: "refused",
      code: "last_owner",
    });
  });

  it("an owner gives an older account its e-mail on Team (one account per address), then SSO links it", async () => {
    const siteKey = await ssoSite();
    const inv = await json(await withKey(siteKey, "POST", "/v1/admin/invitations", { role: "staff" }));
    const made = await browserOf((await accept(siteKey, inv.token, "Mei")).res);
    const path = `/v1/admin/accounts/${made.who.id}`;
    expect((await withKey(siteKey, "PATCH", path, { email: "MEI@clinic.example" })).status).toBe(200);
    expect((await browserOf((await ssoSignIn(siteKey, mei())).res)).who).toMatchObject({ id: made.who.id });
    const other = await json(await withKey(siteKey, "POST", "/v1/admin/invitations", { role: "staff" }));
    const li = await browserOf((await accept(siteKey, other.token, "Li")).res);
    const taken = await withKey(siteKey, "PATCH", `/v1/admin/accounts/${li.who.id}`, { email: MEI.email });
    expect(await errorOf(taken)).toMatchObject({ status: 409, code: "email_taken" });
    const invited = await withKey(siteKey, "POST", "/v1/admin/invitations", { role: "staff", email: MEI.email });
    expect(await errorOf(invited)).toMatchObject({ status: 409, code: "email_taken" });
    expect(await errorOf(await withKey(siteKey, "PATCH", path, {}))).toMatchObject({ code: "validation_failed" });
  });

  it("refuses to link by an e-mail the provider does not say is verified, and records it", async () => {
    // This site lets in addresses its provider does not vouch for (no email_verified claim at all)...
    const siteKey = await ssoSite(ssoConfig(issuerFor(), { requireVerifiedEmail: false }));
    const { browser } = await meiByInvitation(siteKey);
    const { res } = await ssoSignIn(siteKey, mei({ email_verified: undefined }));
    // ...but such an address does not prove its person is the account's.
    expect(await errorOf(res)).toMatchObject({ status: 403, code: "sso_unverified" });
    expect((await auditOf(siteKey, "action=sign_in"))[0]).toMatchObject({
      actorKind: "account",
      actorId: browser.who.id,
      outcome: "refused",
      code: "sso_unverified",
    });
    const { accounts } = await team(siteKey);
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ sso: false, identities: [] });
  });

  it("refuses to link an account linked to another user of the provider (the address changed hands)", async () => {
    const siteKey = await ssoSite();
    const { browser } = await meiByInvitation(siteKey);
    await browserOf((await ssoSignIn(siteKey, mei())).res);
    const { res } = await ssoSignIn(siteKey, mei({ sub: "idp-someone-new" }));
    expect(await errorOf(res)).toMatchObject({ status: 409, code: "sso_link" });
    expect((await auditOf(siteKey, "action=sign_in"))[0]).toMatchObject({ actorId: browser.who.id, code: "sso_link" });
  });
});

describe("unlinking a single sign-on identity", () => {
  /** Mei with a passkey and a linked identity: her passkey browser, her SSO browser, the identity's id. */
  async function linkedMei(siteKey: string) {
    const { browser } = await meiByInvitation(siteKey);
    const sso = await browserOf((await ssoSignIn(siteKey, mei())).res);
    const [identity] = (await json(await browser.get("/v1/admin/me"))).identities;
    return { browser, sso, identity };
  }

  it("an owner unlinks it (fresh, audited): its sessions end, the provider user no longer gets in by it", async () => {
    const siteKey = await ssoSite();
    const { browser, sso, identity } = await linkedMei(siteKey);
    const path = `/v1/admin/accounts/${browser.who.id}/identities/${identity.id}`;
    expect((await withKey(siteKey, "DELETE", path)).status).toBe(204);
    expect((await sso.get("/v1/admin/me")).status).toBe(401);
    const { accounts } = await team(siteKey);
    expect(accounts[0]).toMatchObject({ email: "", sso: false, identities: [], passkeys: 1 });
    expect(await auditOf(siteKey, "action=identity.unlink")).toMatchObject([
      { object: `${browser.who.id}/${identity.id}`, outcome: "ok" },
    ]);
    // Her next SSO sign-in is a stranger's: no rule maps her, so she is refused, not let into the account.
    expect(await errorOf((await ssoSignIn(siteKey, mei())).res)).toMatchObject({ code: "sso_role" });
    expect(await errorOf(await withKey(siteKey, "DELETE", path))).toMatchObject({ status: 404 });
  });

  it("asks the owner for a fresh sign-in", async () => {
    const siteKey = await ssoSite();
    const { browser, identity } = await linkedMei(siteKey);
    const owner = await browserOf(
      (
        await ssoSignIn(siteKey, {
          claims: { sub: "idp-olu", email: "olu@clinic.example", groups: ["parley-owners"] },
          tweak: { authTime: -3600 },
        })
      ).res,
    );
    const res = await owner.send("DELETE", `/v1/admin/accounts/${browser.who.id}/identities/${identity.id}`);
    expect(await errorOf(res)).toMatchObject({ status: 403, code: "reauth_required" });
    expect((await auditOf(siteKey, "action=identity.unlink"))[0]).toMatchObject({ outcome: "refused" });
  });

  it("the account unlinks its own from its page: its passkey session stays, never its last way in", async () => {
    const siteKey = await ssoSite();
    const { browser, sso, identity } = await linkedMei(siteKey);
    const mine = (b: Browser, id: string) => b.send("DELETE", `/v1/admin/me/identities/${id}`);
    expect((await mine(browser, identity.id)).status).toBe(204);
    expect((await browser.get("/v1/admin/me")).status).toBe(200);
    expect((await sso.get("/v1/admin/me")).status).toBe(401);
    expect((await json(await browser.get("/v1/admin/me"))).identities).toEqual([]);
    // An account made by single sign-on has no passkey: its identity is its only way in.
    const ana = await browserOf(
      (await ssoSignIn(siteKey, { claims: { sub: "idp-ana", groups: ["parley-staff"] } })).res,
    );
    const [own] = (await json(await ana.get("/v1/admin/me"))).identities;
    expect(await errorOf(await mine(ana, own.id))).toMatchObject({ status: 409, code: "last_sign_in" });
    expect(await errorOf(await mine(ana, identity.id))).toMatchObject({ status: 404 });
  });
});

describe("a removed account", () => {
  it("its identity no longer signs in (not even as a new account) until its e-mail is invited again", async () => {
    const siteKey = await ssoSite();
    const ana = await browserOf((await ssoSignIn(siteKey)).res);
    expect((await withKey(siteKey, "DELETE", `/v1/admin/accounts/${ana.who.id}`)).status).toBe(204);
    expect((await ana.get("/v1/admin/me")).status).toBe(401);
    const { res } = await ssoSignIn(siteKey);
    expect(await errorOf(res)).toMatchObject({ status: 403, code: "sso_removed" });
    expect((await auditOf(siteKey, "action=sign_in"))[0]).toMatchObject({ outcome: "refused", code: "sso_removed" });
    expect((await team(siteKey)).accounts).toEqual([]);
    await withKey(siteKey, "POST", "/v1/admin/invitations", { role: "viewer", email: "ana@clinic.example" });
    const back = await browserOf((await ssoSignIn(siteKey, { claims: { groups: [] } })).res);
    expect(back.who).toMatchObject({ role: "viewer" });
    expect(back.who.id).not.toBe(ana.who.id);
  });
});
