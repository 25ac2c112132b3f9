import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import {
  accept,
  accountsSite,
  at,
  auditOf,
  browserOf,
  BOOT_KEY,
  invite,
  json,
  member,
  namedKey,
  passkeySignIn,
  post,
  withKey,
} from "../helpers/worker/accounts.ts";
import { call, ORIGIN } from "../helpers/worker/client.ts";
import { SoftAuthenticator } from "../helpers/worker/soft-authenticator.ts";
import { siteAccounts } from "../../worker/objects.ts";

afterEach(() => clearConfigCache());

/** Runs SQL in the site's SiteAccounts object: what time alone would do (an invitation expiring, a session idling). */
const sqlIn = (siteKey: string, query: string, ...args: SqlStorageValue[]) =>
  runInDurableObject(siteAccounts(env, siteKey), (_o, state) => state.storage.sql.exec(query, ...args).toArray());

const errorOf = async (res: Response) => ({ status: res.status, code: (await json(res)).error.code });
const latest = async (siteKey: string, query = "") => (await auditOf(siteKey, query))[0];

describe("invitations", () => {
  it("makes an account with the invited role and the name the person gives, signed in with its passkey", async () => {
    const siteKey = await accountsSite();
    const { id, token } = await invite(siteKey, "editor", "Li");
    const info = await post("/v1/console/invitation", { siteKey, token });
    expect(await json(info)).toMatchObject({ site: siteKey, role: "editor", name: "Li" });
    const { res } = await accept(siteKey, token, "Li Wei");
    const li = await browserOf(res);
    expect(li.who).toMatchObject({ kind: "account", name: "Li Wei", role: "editor" });
    expect((await li.get("/v1/admin/agents")).status).toBe(200);
    const team = await json(await withKey(siteKey, "GET", "/v1/admin/accounts"));
    expect(team.accounts).toMatchObject([{ name: "Li Wei", role: "editor", passkeys: 1 }]);
    expect(team.invitations).toEqual([]);
    expect(await latest(siteKey, "action=invitation.accept")).toMatchObject({ object: id, actorName: "Li Wei" });
  });

  it("refuses a used invitation (410 invitation_used) and records the refusal", async () => {
    const siteKey = await accountsSite();
    const { id, token } = await invite(siteKey, "staff");
    expect((await accept(siteKey, token, "Mei")).res.status).toBe(200);
    const again = await post("/v1/console/invitation/options", { siteKey, token, name: "Mallory" });
    expect(await errorOf(again)).toEqual({ status: 410, code: "invitation_used" });
    expect(await latest(siteKey, "action=invitation.accept")).toMatchObject({
      object: id,
      outcome: "refused",
      code: "invitation_used",
    });
  });

  it("refuses an expired invitation (after 24 h) and a revoked one, each recorded", async () => {
    const siteKey = await accountsSite();
    const old = await invite(siteKey, "staff");
    const [row] = await sqlIn(siteKey, "SELECT created_at, expires_at FROM invitations WHERE id = ?", old.id);
    expect(Number(row.expires_at) - Number(row.created_at)).toBe(24 * 3600_000);
    await sqlIn(siteKey, "UPDATE invitations SET expires_at = ? WHERE id = ?", Date.now() - 1, old.id);
    const expired = await post("/v1/console/invitation", { siteKey, token: old.token });
    expect(await errorOf(expired)).toEqual({ status: 410, code: "invitation_expired" });
    expect(await latest(siteKey)).toMatchObject({ action: "invitation.accept", code: "invitation_expired" });

    const revoked = await invite(siteKey, "owner");
    expect((await withKey(siteKey, "DELETE", `/v1/admin/invitations/${revoked.id}`)).status).toBe(204);
    expect((await latest(siteKey)).action).toBe("invitation.revoke");
    const late = await post("/v1/console/invitation/options", { siteKey, token: revoked.token, name: "Eve" });
    expect(await errorOf(late)).toEqual({ status: 410, code: "invitation_revoked" });
    expect(await latest(siteKey)).toMatchObject({ action: "invitation.accept", code: "invitation_revoked" });
  });
});

describe("passkeys", () => {
  it("refuses a passkey of another site (401 passkey_unknown), recorded in the site it was tried on", async () => {
    const [home, other] = [await accountsSite(), await accountsSite()];
    const { passkey } = await member(home, "owner");
    const { res } = await passkeySignIn(other, passkey);
    expect(await errorOf(res)).toEqual({ status: 401, code: "passkey_unknown" });
    expect(await latest(other)).toMatchObject({ action: "sign_in", outcome: "refused", code: "passkey_unknown" });
  });

  it("refuses a replayed assertion (its challenge used) and a counter that went backwards, each recorded", async () => {
    const siteKey = await accountsSite();
    const { passkey, browser } = await member(siteKey, "staff", "Mei");
    const first = await passkeySignIn(siteKey, passkey);
    expect(first.res.status).toBe(200);
    const replay = await post("/v1/console/passkey", { siteKey, credential: first.credential });
    expect(await errorOf(replay)).toEqual({ status: 401, code: "challenge_invalid" });
    expect(await latest(siteKey)).toMatchObject({ action: "sign_in", code: "challenge_invalid" });

    // A fresh challenge, signed correctly, but with a counter below the last one seen: a cloned authenticator.
    const cloned = await passkeySignIn(siteKey, passkey, { counter: 1 });
    expect(await errorOf(cloned.res)).toEqual({ status: 401, code: "passkey_counter" });
    expect(await latest(siteKey)).toMatchObject({
      action: "sign_in",
      actorId: browser.who.id,
      outcome: "refused",
      code: "passkey_counter",
    });
    expect((await passkeySignIn(siteKey, passkey)).res.status).toBe(200);
  });

  it("refuses an answer signed by another key for a known passkey id (401 passkey_invalid)", async () => {
    const siteKey = await accountsSite();
    const { passkey } = await member(siteKey, "staff");
    const impostor = await SoftAuthenticator.create();
    const options = await json(await post("/v1/console/passkey/options", { siteKey }));
    const forged = await impostor.assert(options, ORIGIN);
    const res = await post("/v1/console/passkey", {
      siteKey,
      credential: { ...forged, id: passkey.credentialId, rawId: passkey.credentialId },
    });
    expect(await errorOf(res)).toEqual({ status: 401, code: "passkey_invalid" });
  });

  it("keeps several passkeys per account, signs in with each, removes one, never the last", async () => {
    const siteKey = await accountsSite();
    const { browser, passkey } = await member(siteKey, "viewer", "Ana");
    const second = await SoftAuthenticator.create();
    const options = await json(await browser.send("POST", "/v1/admin/me/passkeys/options"));
    expect(options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([passkey.credentialId]);
    const added = await browser.send("POST", "/v1/admin/me/passkeys", {
      credential: await second.register(options, ORIGIN),
      label: "Laptop",
    });
    expect(added.status).toBe(201);
    const list = (await json(added)).passkeys as Array<{ id: string; label: string }>;
    expect(list.map((p) => p.label)).toEqual(["Passkey 1", "Laptop"]);
    expect((await passkeySignIn(siteKey, second)).res.status).toBe(200);
    expect((await browser.send("DELETE", `/v1/admin/me/passkeys/${encodeURIComponent(list[0].id)}`)).status).toBe(204);
    expect(await errorOf((await passkeySignIn(siteKey, passkey)).res)).toEqual({
      status: 401,
      code: "passkey_unknown",
    });
    const last = await browser.send("DELETE", `/v1/admin/me/passkeys/${encodeURIComponent(list[1].id)}`);
    expect(await errorOf(last)).toEqual({ status: 409, code: "conflict" });
    expect((await latest(siteKey, "action=passkey.remove")).outcome).toBe("refused");
  });
});

describe("roles and sessions", () => {
  it("refuses a staff cookie on an owner route and an editor changing roles (403), each recorded", async () => {
    const siteKey = await accountsSite();
    const mei = (await member(siteKey, "staff", "Mei")).browser;
    const li = (await member(siteKey, "editor", "Li")).browser;
    expect(await errorOf(await mei.get("/v1/admin/site"))).toEqual({ status: 403, code: "role_forbidden" });
    expect(await latest(siteKey)).toMatchObject({
      action: "permission.denied",
      actorName: "Mei",
      outcome: "refused",
      code: "role_forbidden",
    });
    const promote = await li.send("PATCH", `/v1/admin/accounts/${mei.who.id}`, { role: "owner" });
    expect(await errorOf(promote)).toEqual({ status: 403, code: "role_forbidden" });
    expect(await latest(siteKey)).toMatchObject({ action: "account.role", actorName: "Li", object: mei.who.id });
    expect((await mei.get("/v1/console/session")).status).toBe(200);
  });

  it("ends an account's sessions when its role changes or it is removed; its old cookie is recorded", async () => {
    const siteKey = await accountsSite();
    const mei = (await member(siteKey, "staff", "Mei")).browser;
    const li = (await member(siteKey, "staff", "Li")).browser;
    expect((await withKey(siteKey, "PATCH", `/v1/admin/accounts/${li.who.id}`, { role: "viewer" })).status).toBe(200);
    expect((await li.get("/v1/admin/sessions")).status).toBe(401);
    expect((await withKey(siteKey, "DELETE", `/v1/admin/accounts/${mei.who.id}`)).status).toBe(204);
    const old = await mei.get("/v1/admin/sessions");
    expect(await errorOf(old)).toEqual({ status: 401, code: "unauthorized" });
    expect(await latest(siteKey)).toMatchObject({
      action: "session.refused",
      actorKind: "account",
      actorId: mei.who.id,
      outcome: "refused",
    });
  });

  it("keeps the last owner (409 last_owner): not removed, not demoted; the admin key stays while none", async () => {
    const siteKey = await accountsSite();
    expect(await errorOf(await withKey(siteKey, "DELETE", "/v1/admin/keys/bootstrap"))).toEqual({
      status: 409,
      code: "last_owner",
    });
    const ana = (await member(siteKey, "owner", "Ana")).browser;
    expect(await errorOf(await ana.send("PATCH", `/v1/admin/accounts/${ana.who.id}`, { role: "editor" }))).toEqual({
      status: 409,
      code: "last_owner",
    });
    expect(await errorOf(await ana.send("DELETE", `/v1/admin/accounts/${ana.who.id}`))).toEqual({
      status: 409,
      code: "last_owner",
    });
    expect(await latest(siteKey)).toMatchObject({ action: "account.remove", outcome: "refused", code: "last_owner" });
  });

  it("asks for a fresh sign-in (10 min) to change roles, export and erase; sessions idle out", async () => {
    const siteKey = await accountsSite({ consoleIdleMinutes: 15 });
    const ana = (await member(siteKey, "owner", "Ana")).browser;
    const mei = (await member(siteKey, "staff", "Mei")).browser;
    await sqlIn(
      siteKey,
      "UPDATE console_sessions SET auth_at = ? WHERE actor_id = ?",
      Date.now() - 11 * 60_000,
      ana.who.id,
    );
    const stale = await ana.send("PATCH", `/v1/admin/accounts/${mei.who.id}`, { role: "viewer" });
    expect(await errorOf(stale)).toEqual({ status: 403, code: "reauth_required" });
    expect(await errorOf(await ana.get("/v1/admin/exports/sessions"))).toEqual({
      status: 403,
      code: "reauth_required",
    });
    expect((await ana.get("/v1/admin/sessions")).status).toBe(200);
    // Idle past the site's 15 minutes: signed out.
    await sqlIn(
      siteKey,
      "UPDATE console_sessions SET last_seen = ? WHERE actor_id = ?",
      Date.now() - 16 * 60_000,
      mei.who.id,
    );
    expect((await mei.get("/v1/admin/sessions")).status).toBe(401);
  });
});

describe("admin keys", () => {
  it("names and scopes keys, records their last use, revokes them; the bootstrap key works until revoked", async () => {
    const siteKey = await accountsSite();
    const staffKey = await namedKey(siteKey, "staff", "CRM sync");
    expect((await withKey(siteKey, "GET", "/v1/admin/sessions", undefined, staffKey)).status).toBe(200);
    expect(await errorOf(await withKey(siteKey, "GET", "/v1/admin/site", undefined, staffKey))).toEqual({
      status: 403,
      code: "role_forbidden",
    });
    const { keys } = await json(await withKey(siteKey, "GET", "/v1/admin/accounts"));
    expect(keys).toMatchObject([{ name: "CRM sync", role: "staff", lastUsedAt: expect.any(Number) }]);
    expect(JSON.stringify(keys)).not.toContain(staffKey.split("_")[2]);
    expect((await withKey(siteKey, "DELETE", `/v1/admin/keys/${keys[0].id}`)).status).toBe(204);
    expect((await withKey(siteKey, "GET", "/v1/admin/sessions", undefined, staffKey)).status).toBe(401);
    expect((await latest(siteKey)).action).toBe("sign_in");
    expect((await latest(siteKey, "action=key.revoke")).object).toBe(keys[0].id);

    // The bootstrap key and its console session end when an owner account revokes it.
    const console = await call(at("/v1/console/session"), { method: "POST", json: { siteKey, adminKey: BOOT_KEY } });
    const boot = await browserOf(console.res);
    const ana = (await member(siteKey, "owner", "Ana")).browser;
    expect((await ana.send("DELETE", "/v1/admin/keys/bootstrap")).status).toBe(204);
    expect((await boot.get("/v1/admin/sessions")).status).toBe(401);
    expect((await withKey(siteKey, "GET", "/v1/admin/sessions")).status).toBe(401);
    const again = await call(at("/v1/console/session"), { method: "POST", json: { siteKey, adminKey: BOOT_KEY } });
    expect(again.res.status).toBe(401);
    expect((await json(await ana.get("/v1/admin/accounts"))).bootstrapKey).toBe(false);
  });
});
