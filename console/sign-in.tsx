import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { SsoInfo } from "../shared/config/sso-config.ts";
import { ApiFailure } from "./api.ts";
import { AdminKeySignIn } from "./admin-key-sign-in.tsx";
import { passkeySignIn } from "./passkeys.ts";
import { t } from "./i18n.ts";
import { SIGN_IN_TEXT } from "./sign-in-text.ts";
import { ssoInfo, startSso } from "./sso.ts";

const S = {
  ...SIGN_IN_TEXT,
  title: { en: "Sign in to your site", "zh-CN": "登录你的站点" },
  intro: {
    en:
      "Write your site key, then sign in with your passkey, or with the site's single sign-on when it has one. " +
      "The admin key is only for setting the site up.",
    "zh-CN": "填写站点密钥,然后使用你的通行密钥登录;站点设有单点登录时,也可通过单点登录。管理密钥仅用于设置站点。",
  },
  siteKey: { en: "Site key", "zh-CN": "站点密钥" },
  sso: { en: "Sign in with {name}", "zh-CN": "使用 {name} 登录" },
  passkey: { en: "Sign in with a passkey", "zh-CN": "使用通行密钥登录" },
  passkeyFailed: {
    en: "Could not sign in with a passkey: {m}",
    "zh-CN": "无法使用通行密钥登录:{m}",
  },
  linkFailed: {
    en: "This sign-in link was already used or has expired. Sign in with your site key and the admin key below.",
    "zh-CN": "此登录链接已使用或已过期。请在下方使用站点密钥和管理密钥登录。",
  },
};

/**
 * The sign-in page, the team's daily ways first: the site key, the site's single sign-on when it has
 * one (then the primary button), a passkey; the owner's admin key last, folded away. `site` fills the
 * site key in (`?site=`, or the site a failed single sign-on was for).
 */
export function SignIn(props: { linkFailed?: boolean; ssoError?: string; site?: string }) {
  const { linkFailed = false } = props;
  const siteKey = useSignal(props.site || new URLSearchParams(location.search).get("site") || "");
  const error = useSignal(props.ssoError ?? "");
  const busy = useSignal(false);
  /** The site's single sign-on, looked up once its key is written. */
  const sso = useSignal<SsoInfo | null>(null);
  /** The last look-up: a submit waits for it, and an answer for a key since changed is dropped. */
  const lookup = useRef<{ site: string; done: Promise<void> } | null>(null);

  const lookUp = () => {
    const site = siteKey.value.trim();
    if (lookup.current?.site !== site) {
      const answer = site ? ssoInfo(site) : Promise.resolve(null);
      const done = answer.then((info) => {
        if (lookup.current?.site === site) sso.value = info;
      });
      lookup.current = { site, done };
    }
    return lookup.current.done;
  };
  useEffect(() => void lookUp(), []);

  async function withSso() {
    error.value = "";
    busy.value = true;
    try {
      await startSso(siteKey.value.trim());
    } catch (err) {
      error.value = (await import("./sso-messages.ts")).ssoErrorText(err);
      busy.value = false;
    }
  }

  async function withPasskey() {
    const site = siteKey.value.trim();
    error.value = "";
    if (!site) return void (error.value = t(S.needSite));
    busy.value = true;
    try {
      await passkeySignIn(site);
    } catch (err) {
      const f = err instanceof ApiFailure ? err : null;
      error.value =
        f?.status === 429
          ? t(S.limited).replace("{s}", String(f.retryAfter ?? 60))
          : t(S.passkeyFailed).replace("{m}", err instanceof Error ? err.message : String(err));
    } finally {
      busy.value = false;
    }
  }

  /**
   * Enter in the site key (the form's only field, so the browser submits it): the site's single sign-on
   * once its look-up answers, else a passkey. Each button does what it says, whatever the look-up answers.
   */
  async function primary(e: Event) {
    e.preventDefault();
    await lookUp();
    await (sso.value ? withSso() : withPasskey());
  }

  return (
    <main class="sign-in" id="main">
      <h1>{t(S.title)}</h1>
      <p>{t(S.intro)}</p>
      {linkFailed && (
        <p class="error" role="alert" id="sign-in-link-error">
          {t(S.linkFailed)}
        </p>
      )}
      <form onSubmit={primary} noValidate aria-describedby={error.value ? "sign-in-error" : undefined}>
        <label for="site-key">{t(S.siteKey)}</label>
        <input
          id="site-key"
          name="site-key"
          autocomplete="username"
          required
          value={siteKey.value}
          onInput={(e) => (siteKey.value = e.currentTarget.value)}
          onChange={() => void lookUp()}
        />
        {sso.value && (
          <button type="button" id="sso-sign-in" disabled={busy.value} onClick={() => void withSso()}>
            {t(S.sso).replace("{name}", sso.value.name)}
          </button>
        )}
        <button
          type="button"
          id="passkey-sign-in"
          class={sso.value ? "secondary" : undefined}
          disabled={busy.value}
          onClick={() => void withPasskey()}
        >
          {t(S.passkey)}
        </button>
        <p id="sign-in-error" class="error" role="alert">
          {error.value}
        </p>
      </form>
      <AdminKeySignIn siteKey={siteKey} busy={busy} open={linkFailed} />
    </main>
  );
}
