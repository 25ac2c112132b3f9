import * as ROUTES from "../shared/wire/routes.ts";
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
  const optionsJSON = await api.post(ROUTES.consolePasskeyOptions, { json: { siteKey } });
  const credential = await startAuthentication({ optionsJSON });
  session.value = await api.post(ROUTES.consolePasskey, { json: { siteKey, credential } });
}

export const invitationInfo = (siteKey: string, token: string) =>
  api.post(ROUTES.consoleInvitation, { json: { siteKey, token } });

/** Accepts an invitation: a new passkey for a new account, signed in with it. */
export async function acceptInvitation(siteKey: string, token: string, name: string): Promise<void> {
  const { startRegistration } = await webauthn();
  const optionsJSON = await api.post(ROUTES.consoleInvitationOptions, { json: { siteKey, token, name } });
  const credential = await startRegistration({ optionsJSON });
  session.value = await api.post(ROUTES.consoleInvitationAccept, { json: { siteKey, token, name, credential } });
}

/** A further passkey for the signed-in account (another device, a security key). */
export async function addPasskey(label: string): Promise<void> {
  const { startRegistration } = await webauthn();
  const optionsJSON = await api.post(ROUTES.adminMyPasskeyOptions);
  const credential = await startRegistration({ optionsJSON });
  await api.post(ROUTES.adminMyPasskeys, { json: { credential, ...(label ? { label } : {}) } });
}

export const removePasskey = (id: string) => api.delete(ROUTES.adminMyPasskey, { params: { passkey: id } });
