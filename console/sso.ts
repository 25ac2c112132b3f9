import * as ROUTES from "../shared/wire/routes.ts";
import { api, session } from "./api.ts";
import { navigate } from "./router.ts";

/**
 * Single sign-on in the console: whether the site has it, the start (the worker answers the
 * provider's address and sets the browser's binding cookie; the page goes there), and the callback
 * page (/console/sso/callback) posting what the provider sent back. Where to return after it is kept
 * in this tab's sessionStorage (a console path, nothing secret).
 */
const RETURN = "parley-console-sso-return";

export const ssoInfo = (siteKey: string) => api.get(ROUTES.consoleSso, { query: { site: siteKey } }).catch(() => null);

/** Goes to the provider. `fresh`: a sensitive step asked for a new sign-in; the console comes back to this page. */
export async function startSso(siteKey: string, fresh = false): Promise<never> {
  const { url } = await api.post(ROUTES.consoleSsoStart, {
    json: { siteKey, ...(fresh ? { fresh } : {}) },
  });
  sessionStorage.setItem(RETURN, fresh ? location.pathname : "");
  location.assign(url);
  // The page is leaving: nothing waits on this.
  return new Promise<never>(() => undefined);
}

/** The site a state was made for (its first part), to fill the sign-in form in again after a refusal. */
export function siteOfState(state: string): string {
  try {
    const part = state.slice(0, state.indexOf(".")).replace(/-/g, "+").replace(/_/g, "/");
    return new TextDecoder().decode(Uint8Array.from(atob(part), (c) => c.charCodeAt(0)));
  } catch {
    return "";
  }
}

/**
 * The callback page: the provider's answer leaves the address at once (its code is single-use, and
 * not for the history), goes to the worker, and the console opens where the sign-in began.
 */
export async function finishSso(): Promise<void> {
  const q = new URLSearchParams(location.search);
  const back = sessionStorage.getItem(RETURN) ?? "";
  sessionStorage.removeItem(RETURN);
  navigate("", true);
  const body: Record<string, string> = { state: q.get("state") ?? "" };
  for (const [field, param] of [
    ["code", "code"],
    ["error", "error"],
    ["errorDescription", "error_description"],
  ])
    if (q.get(param)) body[field] = q.get(param)!.slice(0, field === "code" ? 2000 : 400);
  session.value = await api.post(ROUTES.consoleSsoCallback, { json: body });
  const page = /^\/console\/([\w/-]*)$/.exec(back)?.[1];
  if (page) navigate(page, true);
}
