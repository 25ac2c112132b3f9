import * as ROUTES from "../shared/wire/routes.ts";
import { api } from "./api.ts";
import { passkeySignIn } from "./passkeys.ts";
import { ssoInfo, startSso } from "./sso.ts";

/**
 * A fresh sign-in for a sensitive step (exports, erasure, roles, keys, where the worker sends data): the
 * account's passkey, or for an account without one, the site's single sign-on (the provider asked for a
 * recent sign-in; the console comes back to this page, where the step is asked again).
 */
export async function reauthenticate(siteKey: string): Promise<void> {
  const me = await api.get(ROUTES.adminMe);
  if (me.passkeys.length === 0 && (await ssoInfo(siteKey))) await startSso(siteKey, true);
  await passkeySignIn(siteKey);
}
