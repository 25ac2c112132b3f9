import { z } from "zod/mini";
import { AuditQuery } from "../../shared/admin/audit.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { json, op, type RouteDoc, type RouteDocs } from "./route-doc.ts";

/**
 * Accounts, invitations, named keys, passkeys and the audit trail (docs/accounts.md). Their answers
 * are the views of shared/admin/accounts-api.ts and shared/admin/audit.ts, described here by their top-level
 * fields; each route's permission is in shared/wire/route-permissions.ts.
 */
const view = (description: string, fields: string[]) =>
  json(description, z.looseObject(Object.fromEntries(fields.map((f) => [f, z.unknown()]))));
const noBody = { description: "Done", media: "none" };
const refusals = [
  [400, "validation_failed"],
  [403, "role_forbidden"],
  [404, "not_found"],
  [409, "conflict"],
] as const;
const unlinkErrors = { errors: [...refusals, [409, "last_sign_in"]] } as const;
const admin = (summary: string, answers: RouteDoc["answers"], more: Partial<RouteDoc> = {}): RouteDoc => ({
  tag: "admin",
  summary,
  answers,
  errors: refusals,
  ...more,
});
const consoleRoute = (summary: string, answers: RouteDoc["answers"]): RouteDoc => ({
  tag: "console",
  summary,
  answers,
  errors: [
    [400, "validation_failed"],
    [401, "unauthorized"],
    [403, "forbidden_origin"],
    [410, "invitation_used"],
    [410, "invitation_expired"],
    [410, "invitation_revoked"],
    [429, "rate_limited"],
  ],
});
const passkeyOptions = view("WebAuthn options for the browser", ["options"]);

/** The visitor's own data (docs/privacy.md): consent, download, erase; and the owner's list of erasures. */
export const PRIVACY_ROUTES: RouteDocs = {
  [op("post", ROUTES.sessionConsent)]: {
    tag: "visitor",
    summary: "The visitor agrees to the current consent notice (the worker records it with its own time)",
    answers: { 200: view("The session's version after the record", ["version"]) },
    errors: [
      [400, "validation_failed"],
      [404, "not_found"],
      [409, "consent_version"],
    ],
  },
  [op("get", ROUTES.sessionDownload)]: {
    tag: "visitor",
    summary: "The visitor's conversation as a readable offline HTML file or JSON (`format`)",
    query: z.object({ format: z.optional(z.enum(["html", "json"])) }),
    answers: { 200: { description: "The file (attachment)", media: "text/html", alsoMedia: ["application/json"] } },
    errors: [[404, "not_found"]],
  },
  [op("delete", ROUTES.session)]: {
    tag: "visitor",
    summary: "The visitor erases their conversation: events, photos, index row and trace, at once",
    answers: { 204: noBody },
    errors: [[404, "not_found"]],
  },
  [op("get", ROUTES.adminErasures)]: admin("Conversations their visitors erased: the id and when", {
    200: view("The erasures", ["site", "erasures"]),
  }),
};

/** Signed webhooks (docs/webhooks.md): the site's endpoints, their secrets and the deliveries. */
export const WEBHOOK_ROUTES: RouteDocs = {
  [op("get", ROUTES.adminWebhooks)]: admin("The site's webhook endpoints", {
    200: view("The endpoints, each secret as a hint (whsec_… and its last four characters)", ["endpoints"]),
  }),
  [op("post", ROUTES.adminWebhooks)]: admin(
    "Add an endpoint (https, public address) and the events it wants (a fresh sign-in)",
    { 201: view("The endpoint and its secret, shown this once", ["endpoint"]) },
  ),
  [op("put", ROUTES.adminWebhook)]: admin("Change an endpoint's address, events or state (a fresh sign-in)", {
    200: view("The endpoint", ["endpoint"]),
  }),
  [op("delete", ROUTES.adminWebhook)]: admin("Remove an endpoint and what is queued for it", { 204: noBody }),
  [op("post", ROUTES.adminWebhookRotate)]: admin(
    "Rotate an endpoint's secret (a fresh sign-in); the old one signs too for a while",
    { 200: view("The endpoint and its new secret, shown this once", ["endpoint"]) },
  ),
  [op("post", ROUTES.adminWebhookTest)]: admin("Send a test event to an endpoint", {
    202: view("The queued delivery", ["delivery"]),
  }),
  [op("get", ROUTES.adminWebhookDeliveries)]: admin(
    "Deliveries, newest first: status, attempts, the receiver's last answer",
    { 200: view("The deliveries", ["deliveries"]) },
    { query: z.object({ endpoint: z.optional(z.string()), status: z.optional(z.string()) }) },
  ),
  [op("post", ROUTES.adminWebhookResend)]: admin("Send a delivery again", {
    202: view("The queued delivery", ["delivery"]),
  }),
};

export const ACCOUNT_ROUTES: RouteDocs = {
  [op("get", ROUTES.adminAccounts)]: admin("The site's team: accounts, open invitations, named keys", {
    200: view("The team", ["accounts", "invitations", "keys"]),
  }),
  [op("patch", ROUTES.adminAccount)]: admin(
    "Change an account's role (the last owner stays) or the e-mail single sign-on links it by",
    { 200: view("Done, and how many of its sessions ended", ["ok", "sessionsEnded"]) },
  ),
  [op("delete", ROUTES.adminAccountIdentity)]: admin(
    "Unlink a single sign-on identity from an account (never its last way in); its sessions end",
    { 204: noBody },
    unlinkErrors,
  ),
  [op("delete", ROUTES.adminAccount)]: admin("Remove an account; its sessions end at once", { 204: noBody }),
  [op("post", ROUTES.adminInvitations)]: admin("Invite someone: a one-time link, 24 hours", {
    201: view("The invitation and its link (shown once)", ["id", "role", "link", "expiresAt"]),
  }),
  [op("delete", ROUTES.adminInvitation)]: admin("Revoke an invitation", { 204: noBody }),
  [op("post", ROUTES.adminKeys)]: admin("Create a named admin key with a role (the key is shown once)", {
    201: view("The key", ["id", "name", "role", "key"]),
  }),
  [op("delete", ROUTES.adminKeyRevoke)]: admin("Revoke a named admin key, or the bootstrap key", { 204: noBody }),
  [op("get", ROUTES.adminMe)]: admin("Who is calling, their passkeys and single sign-on identities", {
    200: view("The caller", ["who", "passkeys", "identities"]),
  }),
  [op("delete", ROUTES.adminMyIdentity)]: admin(
    "Unlink one of your single sign-on identities (never your last way in); your other sessions end",
    { 204: noBody },
    unlinkErrors,
  ),
  [op("post", ROUTES.adminMyPasskeyOptions)]: admin("Options to register another passkey", { 200: passkeyOptions }),
  [op("post", ROUTES.adminMyPasskeys)]: admin("Register another passkey", {
    201: view("The passkey", ["id", "createdAt"]),
  }),
  [op("delete", ROUTES.adminMyPasskey)]: admin("Remove one of your passkeys", { 204: noBody }),
  [op("get", ROUTES.adminAudit)]: admin(
    "The audit trail, filtered; as CSV or JSON with `format` (an export: a fresh sign-in)",
    { 200: view("A page of entries", ["entries"]) },
    // The export's fresh sign-in is the handler's check (the list is not), so it is not in the table.
    { query: AuditQuery, errors: [...refusals, [403, "reauth_required"]] },
  ),
  [op("get", ROUTES.adminAuditVerify)]: admin("Check the trail's hash chain; names the first broken link", {
    200: view("The verdict", ["ok"]),
  }),
  [op("post", ROUTES.consolePasskeyOptions)]: consoleRoute("Options to sign in with a passkey", {
    200: passkeyOptions,
  }),
  [op("post", ROUTES.consolePasskey)]: consoleRoute("Sign in with a passkey: sets the console's cookie", {
    200: view("The console session", ["site", "csrf", "expiresAt", "who"]),
  }),
  [op("post", ROUTES.consoleInvitation)]: consoleRoute("What an invitation link is for (site, role, expiry)", {
    200: view("The invitation", ["site", "role", "expiresAt"]),
  }),
  [op("post", ROUTES.consoleInvitationOptions)]: consoleRoute("Options to register the invited person's passkey", {
    200: passkeyOptions,
  }),
  [op("post", ROUTES.consoleInvitationAccept)]: consoleRoute(
    "Accept an invitation with a new passkey: creates the account and signs it in",
    { 200: view("The console session", ["site", "csrf", "expiresAt", "who"]) },
  ),
};
