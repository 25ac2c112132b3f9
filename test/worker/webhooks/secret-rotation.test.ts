import { afterEach, describe, expect, it } from "vitest";
import { clearConfigCache } from "../../../worker/config/config-store.ts";
import {
  accountsSite,
  ageSessions as age,
  at,
  auditOf,
  BOOT_KEY,
  browserOf,
  json,
  member,
  namedKey,
  passkeySignIn,
  withKey,
  type Browser,
} from "../../helpers/worker/accounts.ts";
import { call } from "../../helpers/worker/client.ts";

/**
 * A webhook's signing secret is a key: rotating it asks for a sign-in within the last 10 minutes, as
 * exports, erasure, role changes and admin keys do, and each try is in the audit trail as secret.rotate.
 */
afterEach(() => clearConfigCache());

const HOOK = "https://hooks.example.com/parley";
const errorOf = async (res: Response) => ({ status: res.status, code: (await json(res)).error?.code });

async function endpointOf(siteKey: string): Promise<{ id: string; secret: string }> {
  const res = await withKey(siteKey, "POST", "/v1/admin/webhooks", { url: HOOK });
  expect(res.status).toBe(201);
  return (await json(res)).endpoint;
}

const rotate = (b: Browser, id: string) => b.send("POST", `/v1/admin/webhooks/${id}/rotate`, {});
/** The endpoint's secret as the list shows it: its last four characters. */
const secretOf = async (siteKey: string) =>
  (await json(await withKey(siteKey, "GET", "/v1/admin/webhooks"))).endpoints[0].secretHint;
const hintOf = (secret: string) => `whsec_…${secret.slice(-4)}`;

describe("rotating a webhook's signing secret", () => {
  it("asks a stale console session for a fresh sign-in, as an export does, and records the refusal", async () => {
    const siteKey = await accountsSite();
    const ep = await endpointOf(siteKey);
    const { browser: ana, passkey } = await member(siteKey, "owner", "Ana");
    await age(siteKey, ana.who.id);
    const refused = await errorOf(await rotate(ana, ep.id));
    expect(refused).toEqual(await errorOf(await ana.get("/v1/admin/exports/sessions")));
    expect(refused).toEqual({ status: 403, code: "reauth_required" });
    expect(await secretOf(siteKey)).toBe(hintOf(ep.secret));
    expect((await auditOf(siteKey, "action=secret.rotate"))[0]).toMatchObject({
      actorName: "Ana",
      object: ep.id,
      outcome: "refused",
      code: "reauth_required",
    });
    // Her passkey again: the rotation goes through and is recorded as hers.
    const again = await browserOf((await passkeySignIn(siteKey, passkey)).res);
    const res = await rotate(again, ep.id);
    expect(res.status).toBe(200);
    const rotated = (await json(res)).endpoint;
    expect(rotated.secret).not.toBe(ep.secret);
    expect(await secretOf(siteKey)).toBe(hintOf(rotated.secret));
    expect((await auditOf(siteKey, "action=secret.rotate"))[0]).toMatchObject({
      actorKind: "account",
      actorName: "Ana",
      object: ep.id,
      outcome: "ok",
    });
  });

  it("takes the admin key in the header (it is shown on every call) and asks its stale console session again", async () => {
    const siteKey = await accountsSite();
    const ep = await endpointOf(siteKey);
    expect((await withKey(siteKey, "POST", `/v1/admin/webhooks/${ep.id}/rotate`, {})).status).toBe(200);
    const ownerKey = await namedKey(siteKey, "owner", "Deploy script");
    expect((await withKey(siteKey, "POST", `/v1/admin/webhooks/${ep.id}/rotate`, {}, ownerKey)).status).toBe(200);
    expect((await auditOf(siteKey, "action=secret.rotate")).map((e) => [e.actorKind, e.outcome])).toEqual([
      ["key", "ok"],
      ["bootstrap", "ok"],
    ]);
    const signIn = await call(at("/v1/console/session"), { method: "POST", json: { siteKey, adminKey: BOOT_KEY } });
    const boot = await browserOf(signIn.res);
    expect((await rotate(boot, ep.id)).status).toBe(200);
    await age(siteKey, "bootstrap");
    expect(await errorOf(await rotate(boot, ep.id))).toEqual({ status: 403, code: "reauth_required" });
  });
});
