import type { InvitationInfo } from "../shared/accounts-api.ts";
import type { ConsoleSession } from "../shared/console-session.ts";
import { routePath } from "../shared/route-path.ts";
import * as ROUTES from "../shared/routes.ts";
import { api, session } from "./api.ts";

/**
 * Passkeys in the console, through @simplewebauthn/browser (loaded on first use, so pages that never
 * ask for a passkey do not carry it): the browser creates or uses the passkey, the worker makes the
 * challenge and checks the answer. Nothing here sees a private key.
 */
const webauthn = () => import("@simplewebauthn/browser");

/** Signs in with one of the site's passkeys (the browser offers the ones it has for this console). */
export async function passkeySignIn(siteKey: string): Promise<void> {
  const { startAuthentication } = await webauthn();
  const optionsJSON = await api<Parameters<typeof startAuthentication>[0]["optionsJSON"]>(
    ROUTES.consolePasskeyOptions,
    { method: "POST", json: { siteKey } },
  );
  const credential = await startAuthentication({ optionsJSON });
  session.value = await api<ConsoleSession>(ROUTES.consolePasskey, { method: "POST", json: { siteKey, credential } });
}

export const invitationInfo = (siteKey: string, token: string) =>
  api<InvitationInfo>(ROUTES.consoleInvitation, { method: "POST", json: { siteKey, token } });

/** Accepts an invitation: a new passkey for a new account, signed in with it. */
export async function acceptInvitation(siteKey: string, token: string, name: string): Promise<void> {
  const { startRegistration } = await webauthn();
  const optionsJSON = await api<Parameters<typeof startRegistration>[0]["optionsJSON"]>(
    ROUTES.consoleInvitationOptions,
    { method: "POST", json: { siteKey, token, name } },
  );
  const credential = await startRegistration({ optionsJSON });
  session.value = await api<ConsoleSession>(ROUTES.consoleInvitationAccept, {
    method: "POST",
    json: { siteKey, token, name, credential },
  });
}

/** A further passkey for the signed-in account (another device, a security key). */
export async function addPasskey(label: string): Promise<void> {
  const { startRegistration } = await webauthn();
  const optionsJSON = await api<Parameters<typeof startRegistration>[0]["optionsJSON"]>(ROUTES.adminMyPasskeyOptions, {
    method: "POST",
  });
  const credential = await startRegistration({ optionsJSON });
  await api(ROUTES.adminMyPasskeys, { method: "POST", json: { credential, ...(label ? { label } : {}) } });
}

export const removePasskey = (id: string) =>
  api(routePath(ROUTES.adminMyPasskey, { passkey: id }), { method: "DELETE" });
