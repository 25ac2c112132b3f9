import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { SsoInfo } from "../shared/config/sso-config.ts";
import { ApiFailure, signIn } from "./api.ts";
import { passkeySignIn } from "./passkeys.ts";
import { t } from "./i18n.ts";
import { ssoInfo, startSso } from "./sso.ts";

const S = {
  title: { en: "Sign in to your site", "zh-CN": "登录你的站点" },
  intro: {
    en:
      "Team members sign in with their passkey. At setup, the site's owner signs in with the site's admin key: " +
      "it is sent once to sign in and never stored in this browser.",
    "zh-CN":
      "团队成员使用通行密钥登录。设置站点时,站点所有者使用站点管理密钥登录:它只在登录时发送一次,不会保存在浏览器中。",
  },
  passkeyTitle: { en: "Have an account?", "zh-CN": "已有账户?" },
  ssoTitle: { en: "Single sign-on", "zh-CN": "单点登录" },
  ssoIntro: {
    en: "This site's team signs in with its identity provider.",
    "zh-CN": "本站点的团队通过其身份提供方登录。",
  },
  sso: { en: "Sign in with {name}", "zh-CN": "使用 {name} 登录" },
  passkey: { en: "Sign in with a passkey", "zh-CN": "使用通行密钥登录" },
  needSite: { en: "Write your site key first.", "zh-CN": "请先填写站点密钥。" },
  passkeyFailed: {
    en: "Could not sign in with a passkey: {m}",
    "zh-CN": "无法使用通行密钥登录:{m}",
  },
  siteKey: { en: "Site key", "zh-CN": "站点密钥" },
  adminKey: { en: "Admin key", "zh-CN": "管理密钥" },
  submit: { en: "Sign in", "zh-CN": "登录" },
  busy: { en: "Signing in…", "zh-CN": "正在登录…" },
  wrong: { en: "Wrong site key or admin key.", "zh-CN": "站点密钥或管理密钥不正确。" },
  limited: { en: "Too many attempts. Try again in {s} s.", "zh-CN": "尝试次数过多,请 {s} 秒后再试。" },
  failed: { en: "Could not sign in: {m}", "zh-CN": "无法登录:{m}" },
  linkFailed: {
    en: "This sign-in link was already used or has expired. Sign in with your site key and admin key.",
    "zh-CN": "此登录链接已使用或已过期。请使用站点密钥和管理密钥登录。",
  },
};

/** The sign-in page; `site` fills the site key in (`?site=`, or the site a failed single sign-on was for). */
export function SignIn(props: { linkFailed?: boolean; ssoError?: string; site?: string }) {
  const { linkFailed = false } = props;
  const siteKey = useSignal(props.site || new URLSearchParams(location.search).get("site") || "");
  const adminKey = useSignal("");
  const error = useSignal(props.ssoError ?? "");
  const busy = useSignal(false);
  /** The site's single sign-on, looked up once its key is written. */
  const sso = useSignal<SsoInfo | null>(null);

  const lookUp = async () => {
    const site = siteKey.value.trim();
    sso.value = site ? await ssoInfo(site) : null;
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

  async function submit(e: Event) {
    e.preventDefault();
    busy.value = true;
    error.value = "";
    try {
      await signIn(siteKey.value.trim(), adminKey.value);
    } catch (err) {
      const f = err instanceof ApiFailure ? err : new ApiFailure(0, "network", String(err));
      error.value =
        f.status === 401
          ? t(S.wrong)
          : f.status === 429
            ? t(S.limited).replace("{s}", String(f.retryAfter ?? 60))
            : t(S.failed).replace("{m}", f.message);
    } finally {
      // The key leaves memory whatever happened: the owner types it again to retry.
      adminKey.value = "";
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

  return (
    <main class="sign-in" id="main">
      <h1>{t(S.title)}</h1>
      <p>{t(S.intro)}</p>
      {linkFailed && (
        <p class="error" role="alert" id="sign-in-link-error">
          {t(S.linkFailed)}
        </p>
      )}
      <form onSubmit={submit} aria-describedby={error.value ? "sign-in-error" : undefined}>
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
        <label for="admin-key">{t(S.adminKey)}</label>
        <input
          id="admin-key"
          name="admin-key"
          type="password"
          autocomplete="off"
          required
          value={adminKey.value}
          onInput={(e) => (adminKey.value = e.currentTarget.value)}
        />
        <button type="submit" disabled={busy.value}>
          {busy.value ? t(S.busy) : t(S.submit)}
        </button>
        <p id="sign-in-error" class="error" role="alert">
          {error.value}
        </p>
      </form>
      {sso.value && (
        <section aria-labelledby="sso-title" class="passkey">
          <h2 id="sso-title">{t(S.ssoTitle)}</h2>
          <p>{t(S.ssoIntro)}</p>
          <button type="button" disabled={busy.value} onClick={withSso}>
            {t(S.sso).replace("{name}", sso.value.name)}
          </button>
        </section>
      )}
      <section aria-labelledby="passkey-title" class="passkey">
        <h2 id="passkey-title">{t(S.passkeyTitle)}</h2>
        <button type="button" disabled={busy.value} onClick={withPasskey}>
          {t(S.passkey)}
        </button>
      </section>
    </main>
  );
}
