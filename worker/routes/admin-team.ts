import { Hono, type Context } from "hono";
import { AccountChange, InvitationInput, KeyInput } from "../../shared/admin/accounts-api.ts";
import type { AdminAnswer } from "../../shared/wire/admin-answers.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { ApiError } from "../errors.ts";
import type { AdminEnv } from "../middleware/admin-key.ts";
import { jsonBody } from "../middleware/validate.ts";
import { randomHex, randomToken, sha256Hex } from "../accounts/secrets.ts";
import { refusal } from "../accounts/refusal-error.ts";
import { siteAccounts } from "../objects.ts";

/** An invitation link works this long, once. */
export const INVITATION_MS = 24 * 3600_000;

/**
 * The team, for owners (the permission table says so; role changes, removals and keys also ask for a
 * fresh sign-in): accounts and their roles, invitations, named admin keys, and the site's bootstrap
 * admin key (`bootstrap`), which an owner revokes like any key. Mounted behind the admin middleware.
 */
export const teamAdminRoutes = new Hono<AdminEnv>();

const accounts = (c: Context<AdminEnv>) => siteAccounts(c.env, c.var.site.siteKey);

async function bootstrapActive(c: Context<AdminEnv>): Promise<boolean> {
  const digest = c.var.site.adminKeySha256;
  return Boolean(digest) && !(await accounts(c).bootstrapRevoked(digest!));
}

teamAdminRoutes.get(ROUTES.adminAccounts, async (c) => {
  c.header("cache-control", "no-store");
  return c.json(
    (await accounts(c).teamView(await bootstrapActive(c))) satisfies AdminAnswer<"GET", typeof ROUTES.adminAccounts>,
  );
});

teamAdminRoutes.patch(ROUTES.adminAccount, jsonBody(AccountChange), async (c) => {
  const done = await accounts(c).changeAccount(c.req.param("account"), c.req.valid("json"));
  if ("refused" in done) throw refusal(done.refused);
  return c.json({ ok: true, sessionsEnded: done.sessionsEnded } satisfies AdminAnswer<
    "PATCH",
    typeof ROUTES.adminAccount
  >);
});

teamAdminRoutes.delete(ROUTES.adminAccount, async (c) => {
  const done = await accounts(c).removeAccount(c.req.param("account"));
  if ("refused" in done) throw refusal(done.refused);
  return c.body(null, 204);
});

/** Unlinks a single sign-on identity from the account: the provider's user no longer signs in as it. */
teamAdminRoutes.delete(ROUTES.adminAccountIdentity, async (c) => {
  const done = await accounts(c).unlinkIdentity(c.req.param("account"), c.req.param("identity"), c.var.actor.sessionId);
  if ("refused" in done)
    throw done.refused === "not_found"
      ? new ApiError(404, "not_found", "No such identity of this account")
      : refusal(done.refused);
  return c.body(null, 204);
});

teamAdminRoutes.post(ROUTES.adminInvitations, jsonBody(InvitationInput), async (c) => {
  const { role, name, email } = c.req.valid("json");
  if (email && (await accounts(c).accountWithEmail(email)))
    throw new ApiError(409, "email_taken", "An account has this e-mail already: its single sign-on finds it");
  const token = randomToken(32);
  const now = Date.now();
  const view = {
    id: randomToken(9),
    role,
    name: name ?? "",
    email: email ?? "",
    createdAt: now,
    expiresAt: now + INVITATION_MS,
    createdBy: c.var.actor.name,
  };
  await accounts(c).createInvitation(view, await sha256Hex(token), c.var.site.siteKey);
  c.header("cache-control", "no-store");
  return c.json({ ...view, token } satisfies AdminAnswer<"POST", typeof ROUTES.adminInvitations>, 201);
});

teamAdminRoutes.delete(ROUTES.adminInvitation, async (c) => {
  if (!(await accounts(c).revokeInvitation(c.req.param("invitation"))))
    throw new ApiError(404, "not_found", "No such invitation waiting (used, revoked or unknown)");
  return c.body(null, 204);
});

teamAdminRoutes.post(ROUTES.adminKeys, jsonBody(KeyInput), async (c) => {
  const { name, role } = c.req.valid("json");
  const id = randomHex(6);
  const secret = randomToken(32);
  const view = { id, name, role, createdAt: Date.now(), lastUsedAt: null, createdBy: c.var.actor.name };
  await accounts(c).createKey(view, await sha256Hex(secret));
  c.header("cache-control", "no-store");
  return c.json({ ...view, key: `pk_${id}_${secret}` } satisfies AdminAnswer<"POST", typeof ROUTES.adminKeys>, 201);
});

/** Revokes a named key, or (`bootstrap`) the site's original admin key: its console sessions end with it. */
teamAdminRoutes.delete(ROUTES.adminKeyRevoke, async (c) => {
  const id = c.req.param("key");
  if (id === "bootstrap") {
    if (!(await bootstrapActive(c))) throw new ApiError(404, "not_found", "The site's admin key is revoked already");
    const done = await accounts(c).revokeBootstrap(c.var.site.adminKeySha256!);
    if ("refused" in done) throw refusal(done.refused);
    return c.body(null, 204);
  }
  if (!(await accounts(c).revokeKey(id))) throw new ApiError(404, "not_found", "No such key (or revoked already)");
  return c.body(null, 204);
});
