import { afterEach, describe, expect, it } from "vitest";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { claimValues, mappedRole, ssoRole } from "../../worker/accounts/sso-role.ts";
import { auditOf, browserOf, invite, json, member, withKey } from "../helpers/worker/accounts.ts";
import { atProvider, finishSso, issuerFor, ssoConfig, ssoSignIn, ssoSite, startSso } from "../helpers/worker/sso.ts";

afterEach(() => clearConfigCache());

const MAP = ssoConfig("https://idp.example").roleMap!;
const groups = (...g: string[]) => ({ claims: { groups: g } });
const errorCode = async (res: Response) => (await json(res)).error.code;

describe("the claim-to-role rule", () => {
  it("reads a claim's values at a dotted path (Keycloak's realm roles), as a list", () => {
    const claims = { groups: ["a", "b"], role: "x", realm_access: { roles: ["r1", 7] }, weird: { a: [{ b: 1 }] } };
    expect(claimValues(claims, "groups")).toEqual(["a", "b"]);
    expect(claimValues(claims, "role")).toEqual(["x"]);
    expect(claimValues(claims, "realm_access.roles")).toEqual(["r1", "7"]);
    expect(claimValues(claims, "weird.a.b")).toEqual([]);
    expect(claimValues(claims, "missing")).toEqual([]);
    expect(claimValues(claims, "")).toEqual([]);
  });

  it("gives the highest role any value maps to", () => {
    expect(mappedRole(MAP, ["parley-staff", "parley-owners"])).toBe("owner");
    expect(mappedRole(MAP, ["parley-staff"])).toBe("staff");
    expect(mappedRole(MAP, ["cafeteria"])).toBeNull();
  });

  it("orders: the mapping, then a role an owner chose, then the default, then refused", () => {
    const config = { roleClaim: "groups", roleMap: MAP, defaultRole: "refuse" as const };
    const none = { groups: ["cafeteria"] };
    expect(ssoRole(config, { groups: ["parley-editors"] }, { role: "viewer", by: "owner" })).toEqual({
      role: "editor",
      by: "sso",
    });
    expect(ssoRole(config, none, { role: "viewer", by: "owner" })).toEqual({ role: "viewer", by: "owner" });
    expect(ssoRole(config, none, null, "staff")).toEqual({ role: "staff", by: "owner" });
    expect(ssoRole(config, none, { role: "staff", by: "sso" })).toEqual({ refused: "no_role" });
    expect(ssoRole({ ...config, defaultRole: "viewer" }, none, { role: "staff", by: "sso" })).toEqual({
      role: "viewer",
      by: "sso",
    });
  });
});

describe("roles at SSO sign-in", () => {
  it("a claim change updates the role at the next sign-in, and ends the account's older sessions", async () => {
    const siteKey = await ssoSite();
    const first = await browserOf((await ssoSignIn(siteKey)).res);
    expect(first.who.role).toBe("staff");
    const second = await browserOf((await ssoSignIn(siteKey, groups("parley-editors"))).res);
    expect(second.who).toMatchObject({ id: first.who.id, role: "editor" });
    expect((await first.get("/v1/admin/me")).status).toBe(401);
    expect((await second.get("/v1/admin/agents")).status).toBe(200);
    expect(await auditOf(siteKey, "action=account.role")).toMatchObject([{ object: first.who.id, outcome: "ok" }]);
  });

  it("keeps the site's last owner an owner, whatever the claim says, until there is another", async () => {
    const siteKey = await ssoSite();
    const owner = await browserOf((await ssoSignIn(siteKey, groups("parley-owners"))).res);
    expect(owner.who.role).toBe("owner");
    const kept = await browserOf((await ssoSignIn(siteKey, groups("parley-staff"))).res);
    expect(kept.who.role).toBe("owner");
    expect((await auditOf(siteKey, "action=account.role"))[0]).toMatchObject({
      outcome: "refused",
      code: "last_owner",
    });
    await member(siteKey, "owner");
    const demoted = await browserOf((await ssoSignIn(siteKey, groups("parley-staff"))).res);
    expect(demoted.who.role).toBe("staff");
    // An account made with a software passkey besides three sign-ins: over 5 s on a busy machine.
  }, 20_000);

  it("gives the default role to someone no rule maps, when the site has one", async () => {
    const siteKey = await ssoSite(ssoConfig(issuerFor(), { defaultRole: "viewer" }));
    const v = await browserOf((await ssoSignIn(siteKey, groups())).res);
    expect(v.who.role).toBe("viewer");
  });

  it("refuses someone taken out of every mapped group (default: refuse), naming the account in the trail", async () => {
    const siteKey = await ssoSite();
    const ana = await browserOf((await ssoSignIn(siteKey)).res);
    const { res } = await ssoSignIn(siteKey, groups("cafeteria"));
    expect(await errorCode(res)).toBe("sso_role");
    expect((await auditOf(siteKey, "action=sign_in"))[0]).toMatchObject({
      actorKind: "account",
      actorId: ana.who.id,
      code: "sso_role",
    });
  });

  it("takes up an invitation for the e-mail: its name and role, which stand until a rule maps them", async () => {
    const siteKey = await ssoSite();
    const res = await withKey(siteKey, "POST", "/v1/admin/invitations", {
      role: "editor",
      name: "Li",
      email: "Li@Clinic.example",
    });
    const { id, email } = await json(res);
    expect(email).toBe("li@clinic.example");
    const li = { claims: { email: "li@clinic.example", groups: [] as string[] } };
    const first = await browserOf((await ssoSignIn(siteKey, li)).res);
    expect(first.who).toMatchObject({ name: "Li", role: "editor" });
    const team = await json(await withKey(siteKey, "GET", "/v1/admin/accounts"));
    expect(team.invitations).toEqual([]);
    expect(team.accounts).toMatchObject([{ name: "Li", role: "editor", sso: true, passkeys: 0 }]);
    expect((await auditOf(siteKey, "action=invitation.accept"))[0]).toMatchObject({ object: id, actorName: "Li" });
    expect((await browserOf((await ssoSignIn(siteKey, li)).res)).who.role).toBe("editor");
    const mapped = { claims: { ...li.claims, groups: ["parley-staff"] } };
    expect((await browserOf((await ssoSignIn(siteKey, mapped)).res)).who.role).toBe("staff");
  });

  it("an owner's choice on Team stands for someone no rule maps", async () => {
    const siteKey = await ssoSite(ssoConfig(issuerFor(), { defaultRole: "viewer" }));
    const v = await browserOf((await ssoSignIn(siteKey, groups())).res);
    expect((await withKey(siteKey, "PATCH", `/v1/admin/accounts/${v.who.id}`, { role: "staff" })).status).toBe(200);
    expect((await browserOf((await ssoSignIn(siteKey, groups())).res)).who.role).toBe("staff");
  });
});

describe("a fresh sign-in for sensitive steps", () => {
  const owner = { claims: { groups: ["parley-owners"] } };
  const keyOf = (b: Awaited<ReturnType<typeof browserOf>>) =>
    b.send("POST", "/v1/admin/keys", { name: "s", role: "viewer" });

  it("counts from the provider's own check of the person: one it remembered for an hour is not fresh", async () => {
    const siteKey = await ssoSite();
    const now = await browserOf((await ssoSignIn(siteKey, owner)).res);
    expect((await keyOf(now)).status).toBe(201);
    const remembered = await browserOf((await ssoSignIn(siteKey, { ...owner, tweak: { authTime: -3600 } })).res);
    expect(await errorCode(await keyOf(remembered))).toBe("reauth_required");
  });

  it("asks the provider for a sign-in at most 5 minutes old (max_age), and refuses an older one", async () => {
    const siteKey = await ssoSite();
    const { url, cookie } = await startSso(siteKey, "", true);
    expect(url.searchParams.get("max_age")).toBe("300");
    const claims = { email: "ana@clinic.example", email_verified: true, groups: ["parley-owners"] };
    const stale = await atProvider(url, { claims, tweak: { authTime: -3600 } });
    const res = await finishSso({ state: stale.state, code: stale.code }, cookie);
    expect(await json(res)).toMatchObject({ error: { code: "sso_token", message: expect.stringMatching(/older/) } });
    const again = await startSso(siteKey, cookie, true);
    const fresh = await atProvider(again.url, { claims, tweak: { authTime: -5 } });
    const signedIn = await browserOf(await finishSso({ state: fresh.state, code: fresh.code }, again.cookie));
    expect((await keyOf(signedIn)).status).toBe(201);
  });
});

describe("an invitation's e-mail", () => {
  it("is optional, and refused when it is not an address", async () => {
    const siteKey = await ssoSite();
    expect((await invite(siteKey, "staff")).token).toBeTruthy();
    const res = await withKey(siteKey, "POST", "/v1/admin/invitations", { role: "staff", email: "not an address" });
    expect(await errorCode(res)).toBe("validation_failed");
  });
});
