import { Hono, type Context } from "hono";
import {
  InvitationAccept,
  InvitationLookup,
  InvitationOptionsInput,
  PasskeyOptionsInput,
  PasskeySignIn,
} from "../../shared/admin/accounts-api.ts";
import type { AuditAction } from "../../shared/admin/audit.ts";
import type { AdminAnswer } from "../../shared/wire/admin-answers.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { loadSite } from "../config/config-store.ts";
import { admitAdmin } from "../limits/admission.ts";
import { jsonBody } from "../middleware/validate.ts";
import type { Actor } from "../accounts/actor.ts";
import { randomToken, sha256Hex } from "../accounts/secrets.ts";
import {
  authenticationOptions,
  challengeOf,
  registrationOptions,
  relyingParty,
  verifyAssertion,
  verifyRegistration,
} from "../accounts/webauthn.ts";
import { actorRef, auditRequest } from "../audit/record-audit.ts";
import { requireSameOrigin } from "../console/console-auth.ts";
import { openConsoleSession } from "../console/open-session.ts";
import { siteAccounts } from "../objects.ts";

/**
 * Signing in without a key: a passkey of one of the site's accounts (a challenge, then its signed
 * answer), and an invitation link (what it offers, a challenge, then the new account's first
 * passkey). Each is a same-origin POST counted like a key check (admitAdmin); every refusal is a 4xx
 * with its own code and an entry in the site's audit trail.
 */
export const consolePasskeyRoutes = new Hono<AppEnv>();

type Ctx = Context<AppEnv>;

async function guard(c: Ctx) {
  requireSameOrigin(c);
  await admitAdmin(c);
}

/** Records the refusal in the site's trail (when the site exists) and answers the error to throw. */
async function refused(
  c: Ctx,
  siteKey: string,
  action: AuditAction,
  err: ApiError,
  actor: Actor | null = null,
  object = "",
) {
  if (await loadSite(c.env, siteKey))
    await auditRequest(c, siteKey, { actor: actorRef(actor), action, object, outcome: "refused", code: err.code });
  return err;
}

consolePasskeyRoutes.post(ROUTES.consolePasskeyOptions, jsonBody(PasskeyOptionsInput), async (c) => {
  await guard(c);
  const { siteKey } = c.req.valid("json");
  const options = await authenticationOptions(relyingParty(c.req.url));
  // An unknown site gets a challenge too (stored nowhere): the answer says nothing about which sites exist.
  if (await loadSite(c.env, siteKey))
    await siteAccounts(c.env, siteKey).issueChallenge(options.challenge, { purpose: "sign_in", subject: "" });
  c.header("cache-control", "no-store");
  return c.json(options satisfies AdminAnswer<"POST", typeof ROUTES.consolePasskeyOptions>);
});

consolePasskeyRoutes.post(ROUTES.consolePasskey, jsonBody(PasskeySignIn), async (c) => {
  await guard(c);
  const { siteKey, credential } = c.req.valid("json");
  const site = await loadSite(c.env, siteKey);
  const unknown = new ApiError(401, "passkey_unknown", "This passkey is not one of this site's accounts'");
  if (!site) throw unknown;
  const accounts = siteAccounts(c.env, siteKey);
  const challenge = challengeOf(credential);
  const issued = challenge ? await accounts.takeChallenge(challenge) : null;
  if (issued?.purpose !== "sign_in")
    throw await refused(
      c,
      siteKey,
      "sign_in",
      new ApiError(401, "challenge_invalid", "This sign-in's challenge was used already or has expired: start again"),
    );
  const passkey = await accounts.passkey(credential.id);
  const account = passkey ? await accounts.account(passkey.accountId) : null;
  if (!passkey || !account) throw await refused(c, siteKey, "sign_in", unknown, null, credential.id.slice(0, 32));
  const actor: Actor = { kind: "account", ...account, authAt: Date.now() };
  let counter: number;
  try {
    counter = await verifyAssertion(relyingParty(c.req.url), credential, challenge, passkey);
  } catch (err) {
    throw await refused(c, siteKey, "sign_in", err as ApiError, actor);
  }
  const backwards = (passkey.counter > 0 || counter > 0) && counter <= passkey.counter;
  if (backwards || !(await accounts.passkeyUsed(passkey.id, counter)))
    throw await refused(
      c,
      siteKey,
      "sign_in",
      new ApiError(
        401,
        "passkey_counter",
        `The passkey's signature counter went backwards (${counter} after ${passkey.counter}): it may be a copy`,
      ),
      actor,
      passkey.id.slice(0, 32),
    );
  await auditRequest(c, siteKey, { actor: actorRef(actor), action: "sign_in", object: "passkey" });
  return openConsoleSession(c, site, actor);
});

/** The invitation of a link, usable now; refusals recorded and thrown. */
async function usableInvitation(c: Ctx, siteKey: string, token: string) {
  const site = await loadSite(c.env, siteKey);
  const none = new ApiError(404, "not_found", "No such invitation");
  if (!site) throw none;
  const accounts = siteAccounts(c.env, siteKey);
  const inv = await accounts.invitation(await sha256Hex(token));
  const refuse = (err: ApiError) => refused(c, siteKey, "invitation.accept", err, null, inv?.id ?? "");
  if (!inv) throw await refuse(none);
  if (inv.usedAt !== null)
    throw await refuse(new ApiError(410, "invitation_used", "This invitation was used already: ask for a new one"));
  if (inv.revokedAt !== null)
    throw await refuse(new ApiError(410, "invitation_revoked", "This invitation was revoked: ask for a new one"));
  if (inv.expiresAt <= Date.now())
    throw await refuse(new ApiError(410, "invitation_expired", "This invitation has expired: ask for a new one"));
  return { site, accounts, inv };
}

consolePasskeyRoutes.post(ROUTES.consoleInvitation, jsonBody(InvitationLookup), async (c) => {
  await guard(c);
  const { siteKey, token } = c.req.valid("json");
  const { inv } = await usableInvitation(c, siteKey, token);
  c.header("cache-control", "no-store");
  const info = { site: siteKey, role: inv.role, name: inv.name, expiresAt: inv.expiresAt };
  return c.json(info satisfies AdminAnswer<"POST", typeof ROUTES.consoleInvitation>);
});

consolePasskeyRoutes.post(ROUTES.consoleInvitationOptions, jsonBody(InvitationOptionsInput), async (c) => {
  await guard(c);
  const { siteKey, token, name } = c.req.valid("json");
  const { accounts, inv } = await usableInvitation(c, siteKey, token);
  // The account's id is minted now: the passkey carries it as its user handle.
  const accountId = randomToken(9);
  const options = await registrationOptions(relyingParty(c.req.url), { id: accountId, name });
  await accounts.issueChallenge(options.challenge, { purpose: "invitation", subject: `${inv.id} ${accountId}` });
  c.header("cache-control", "no-store");
  return c.json(options satisfies AdminAnswer<"POST", typeof ROUTES.consoleInvitationOptions>);
});

consolePasskeyRoutes.post(ROUTES.consoleInvitationAccept, jsonBody(InvitationAccept), async (c) => {
  await guard(c);
  const { siteKey, token, name, credential } = c.req.valid("json");
  const { site, accounts, inv } = await usableInvitation(c, siteKey, token);
  const challenge = challengeOf(credential);
  const issued = challenge ? await accounts.takeChallenge(challenge) : null;
  const [invitationId, accountId] = issued?.subject.split(" ") ?? [];
  if (issued?.purpose !== "invitation" || invitationId !== inv.id || !accountId)
    throw await refused(
      c,
      siteKey,
      "invitation.accept",
      new ApiError(
        401,
        "challenge_invalid",
        "This registration's challenge was used already or has expired: start again",
      ),
      null,
      inv.id,
    );
  let passkey;
  try {
    passkey = await verifyRegistration(relyingParty(c.req.url), credential, challenge, accountId);
  } catch (err) {
    throw await refused(c, siteKey, "invitation.accept", err as ApiError, null, inv.id);
  }
  const actor: Actor = { kind: "account", id: accountId, name, role: inv.role, authAt: Date.now() };
  const done = await accounts.acceptInvitation(inv.id, { id: accountId, name, role: inv.role }, passkey);
  if ("refused" in done)
    throw await refused(
      c,
      siteKey,
      "invitation.accept",
      done.refused === "conflict"
        ? new ApiError(409, "conflict", "This passkey belongs to an account already")
        : new ApiError(410, "invitation_used", "This invitation was used already: ask for a new one"),
      null,
      inv.id,
    );
  await auditRequest(c, siteKey, { actor: actorRef(actor), action: "invitation.accept", object: inv.id });
  await auditRequest(c, siteKey, { actor: actorRef(actor), action: "passkey.add", object: passkey.id.slice(0, 32) });
  return openConsoleSession(c, site, actor);
});
