import { ApiFailure } from "./api.ts";
import { t } from "./i18n.ts";

/** Why a single sign-on failed, by the worker's code (loaded only then: the console's first load stays small). */
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
  sso_unverified: {
    en:
      "An account has your e-mail address, but your identity provider does not say it is verified, " +
      "so you are not signed in to it. Ask an owner.",
    "zh-CN": "已有账户使用你的电子邮件地址,但身份提供方没有说明该地址已验证,因此没有登录该账户。请联系站点所有者。",
  },
  sso_link: {
    en: "The account with your e-mail address is linked to someone else at your identity provider. Ask an owner.",
    "zh-CN": "使用你电子邮件地址的账户已关联到身份提供方的另一位用户。请联系站点所有者。",
  },
  sso_removed: {
    en: "An owner removed your account on this site. Ask them for a new invitation.",
    "zh-CN": "站点所有者已移除你的账户。请向其索取新的邀请。",
  },
  sso_userinfo: {
    en: "Your identity provider did not give what this sign-in needs: {m}",
    "zh-CN": "身份提供方没有提供此次登录所需的信息。",
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
