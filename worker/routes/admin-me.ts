import { Hono, type Context } from "hono";
import { PasskeyAdd } from "../../shared/admin/accounts-api.ts";
import type { AdminAnswer } from "../../shared/wire/admin-answers.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { ApiError } from "../errors.ts";
import type { AdminEnv } from "../middleware/admin-key.ts";
import { jsonBody } from "../middleware/validate.ts";
import { whoOf } from "../accounts/actor.ts";
import { challengeOf, registrationOptions, relyingParty, verifyRegistration } from "../accounts/webauthn.ts";
import { refusal } from "../accounts/refusal-error.ts";
import { siteAccounts } from "../objects.ts";

/**
 * The signed-in account's own page: who it is, its passkeys, a further one (a challenge, then the
 * new passkey's registration), removing one, and unlinking a single sign-on identity (never the
 * account's last way in). Mounted behind the admin middleware;
 * the permission table keeps admin keys out of the passkey routes (they have no account).
 */
export const meAdminRoutes = new Hono<AdminEnv>();

const accounts = (c: Context<AdminEnv>) => siteAccounts(c.env, c.var.site.siteKey);

meAdminRoutes.get(ROUTES.adminMe, async (c) => {
  const actor = c.var.actor;
  const mine = actor.kind === "account";
  const passkeys = mine ? await accounts(c).myPasskeys(actor.id) : [];
  const identities = mine ? await accounts(c).myIdentities(actor.id) : [];
  c.header("cache-control", "no-store");
  return c.json({ who: whoOf(actor), passkeys, identities } satisfies AdminAnswer<"GET", typeof ROUTES.adminMe>);
});

meAdminRoutes.post(ROUTES.adminMyPasskeyOptions, async (c) => {
  const actor = c.var.actor;
  const exclude = await accounts(c).credentialIds(actor.id);
  const options = await registrationOptions(relyingParty(c.req.url), { id: actor.id, name: actor.name }, exclude);
  await accounts(c).issueChallenge(options.challenge, { purpose: "add_passkey", subject: actor.id });
  c.header("cache-control", "no-store");
  return c.json(options satisfies AdminAnswer<"POST", typeof ROUTES.adminMyPasskeyOptions>);
});

meAdminRoutes.post(ROUTES.adminMyPasskeys, jsonBody(PasskeyAdd), async (c) => {
  const actor = c.var.actor;
  const { credential, label } = c.req.valid("json");
  const challenge = challengeOf(credential);
  const issued = challenge ? await accounts(c).takeChallenge(challenge) : null;
  if (issued?.purpose !== "add_passkey" || issued.subject !== actor.id)
    throw new ApiError(401, "challenge_invalid", "This registration's challenge was used already or has expired");
  const passkey = await verifyRegistration(relyingParty(c.req.url), credential, challenge, actor.id);
  const count = (await accounts(c).myPasskeys(actor.id)).length;
  const done = await accounts(c).addPasskey(passkey, label ?? `Passkey ${count + 1}`);
  if ("refused" in done) throw new ApiError(409, "conflict", "This passkey is registered already");
  return c.json(
    { passkeys: await accounts(c).myPasskeys(actor.id) } satisfies AdminAnswer<"POST", typeof ROUTES.adminMyPasskeys>,
    201,
  );
});

meAdminRoutes.delete(ROUTES.adminMyPasskey, async (c) => {
  const done = await accounts(c).removePasskey(c.var.actor.id, c.req.param("passkey"));
  if ("refused" in done)
    throw done.refused === "not_found"
      ? new ApiError(404, "not_found", "No such passkey of yours")
      : new ApiError(409, "conflict", "This is your last way to sign in: add another passkey before removing it");
  return c.body(null, 204);
});

/** Unlinks one of the account's own single sign-on identities; its other sessions end, this one stays. */
meAdminRoutes.delete(ROUTES.adminMyIdentity, async (c) => {
  const actor = c.var.actor;
  const done = await accounts(c).unlinkIdentity(actor.id, c.req.param("identity"), actor.sessionId);
  if ("refused" in done)
    throw done.refused === "not_found"
      ? new ApiError(404, "not_found", "No such identity of yours")
      : refusal(done.refused);
  return c.body(null, 204);
});
