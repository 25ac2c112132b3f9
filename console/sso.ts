import type { ConsoleSession } from "../shared/console-session.ts";
import * as ROUTES from "../shared/routes.ts";
import type { SsoInfo, SsoStarted } from "../shared/sso-config.ts";
import { ApiFailure, api, session } from "./api.ts";
import { t } from "./i18n.ts";
import { navigate } from "./router.ts";

/**
 * Single sign-on in the console: whether the site has it, the start (the worker answers the
 * provider's address and sets the browser's binding cookie; the page goes there), and the callback
 * page (/console/sso/callback) posting what the provider sent back. Where to return after it is kept
 * in this tab's sessionStorage (a console path, nothing secret).
 */
const RETURN = "parley-console-sso-return";

export const ssoInfo = (siteKey: string) =>
  api<SsoInfo>(ROUTES.consoleSso, { query: { site: siteKey } }).catch(() => null);

/** Goes to the provider. `fresh`: a sensitive step asked for a new sign-in; the console comes back to this page. */
export async function startSso(siteKey: string, fresh = false): Promise<never> {
  const { url } = await api<SsoStarted>(ROUTES.consoleSsoStart, {
    method: "POST",
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
  session.value = await api<ConsoleSession>(ROUTES.consoleSsoCallback, { method: "POST", json: body });
  const page = /^\/console\/([\w/-]*)$/.exec(back)?.[1];
  if (page) navigate(page, true);
}

const S: Record<string, { en: string; "zh-CN": string }> = {
  sso_state: {
    en: "This sign-in took too long, was already finished, or was started in another browser. Start it again here.",
    "zh-CN": "此次登录耗时过长、已完成或是在其他浏览器中发起的。请在此重新开始。",
  },
  sso_denied: {
    en: "Your identity provider did not sign you in (it said no, or the sign-in was cancelled).",
    "zh-CN": "身份提供方没有让你登录(被拒绝或登录已取消)。",
  },
  sso_code: {
    en: "Your identity provider refused to finish this sign-in (its code expired or does not match). Start again.",
    "zh-CN": "身份提供方拒绝完成此次登录(授权码已过期或不匹配)。请重新开始。",
  },
  sso_token: {
    en: "The identity provider's answer could not be trusted, so you are not signed in: {m}",
    "zh-CN": "身份提供方的应答无法验证,因此没有登录。",
  },
  sso_issuer: {
    en: "The answer came from another identity provider than this site's, so you are not signed in.",
    "zh-CN": "应答来自与本站点不同的身份提供方,因此没有登录。",
  },
  sso_nonce: {
    en: "The answer belongs to another sign-in, so you are not signed in. Start again.",
    "zh-CN": "应答属于另一次登录,因此没有登录。请重新开始。",
  },
  sso_email: {
    en: "Your identity provider did not give a verified e-mail address.",
    "zh-CN": "身份提供方没有提供已验证的电子邮件地址。",
  },
  sso_domain: {
    en: "This site does not let in e-mail addresses of your domain.",
    "zh-CN": "本站点不允许你所在域名的电子邮件地址登录。",
  },
  sso_role: {
    en: "You have no role on this site yet: ask one of its owners.",
    "zh-CN": "你在本站点还没有角色:请联系站点所有者。",
  },
  sso_off: { en: "This site has no single sign-on.", "zh-CN": "本站点没有启用单点登录。" },
  sso_unreachable: {
    en: "Your identity provider did not answer. Try again in a moment.",
    "zh-CN": "身份提供方没有响应,请稍后再试。",
  },
  other: { en: "Could not sign in with single sign-on: {m}", "zh-CN": "无法通过单点登录:{m}" },
};

/** What the sign-in page says of a failed single sign-on, in the console's language. */
export function ssoErrorText(err: unknown): string {
  const f = err instanceof ApiFailure ? err : new ApiFailure(0, "network", String(err));
  return t(S[f.code] ?? S.other).replace("{m}", f.message);
}
