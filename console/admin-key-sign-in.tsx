import { useSignal, type Signal } from "@preact/signals";
import { ApiFailure, signIn } from "./api.ts";
import { t } from "./i18n.ts";
import { SIGN_IN_TEXT } from "./sign-in-text.ts";

const S = {
  ...SIGN_IN_TEXT,
  summary: { en: "Setting up the site? Sign in with its admin key", "zh-CN": "正在设置站点?使用站点管理密钥登录" },
  intro: {
    en:
      "The admin key is for the site's owner at setup and for scripts; the team signs in with passkeys or " +
      "single sign-on. The key is sent once to sign in and never stored in this browser.",
    "zh-CN":
      "管理密钥供站点所有者在设置站点时以及脚本使用;团队成员使用通行密钥或单点登录。" +
      "密钥只在登录时发送一次,不会保存在浏览器中。",
  },
  adminKey: { en: "Admin key", "zh-CN": "管理密钥" },
  submit: { en: "Sign in with the admin key", "zh-CN": "使用管理密钥登录" },
  busy: { en: "Signing in…", "zh-CN": "正在登录…" },
  wrong: { en: "Wrong site key or admin key.", "zh-CN": "站点密钥或管理密钥不正确。" },
  failed: { en: "Could not sign in: {m}", "zh-CN": "无法登录:{m}" },
};

/**
 * The owner's bootstrap way in, below the team's daily ones: a disclosure, closed unless `open` (a
 * one-time sign-in link failed, so the owner is the one here). The key lives only in this form's
 * signal and is cleared after every try.
 */
export function AdminKeySignIn(props: { siteKey: Signal<string>; busy: Signal<boolean>; open: boolean }) {
  const { siteKey, busy } = props;
  const adminKey = useSignal("");
  const error = useSignal("");

  async function submit(e: Event) {
    e.preventDefault();
    error.value = "";
    const site = siteKey.value.trim();
    const key = adminKey.value;
    // The key leaves the page whatever happens: the owner types it again to retry.
    adminKey.value = "";
    if (!site) {
      error.value = t(S.needSite);
      document.getElementById("site-key")?.focus();
      return;
    }
    busy.value = true;
    try {
      await signIn(site, key);
    } catch (err) {
      const f = err instanceof ApiFailure ? err : new ApiFailure(0, "network", String(err));
      error.value =
        f.status === 401
          ? t(S.wrong)
          : f.status === 429
            ? t(S.limited).replace("{s}", String(f.retryAfter ?? 60))
            : t(S.failed).replace("{m}", f.message);
    } finally {
      busy.value = false;
    }
  }

  return (
    <details class="admin-key" open={props.open}>
      <summary id="admin-key-way">{t(S.summary)}</summary>
      <p>{t(S.intro)}</p>
      <form onSubmit={submit} aria-describedby={error.value ? "admin-key-error" : undefined}>
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
        <button type="submit" id="admin-key-sign-in" class="secondary" disabled={busy.value}>
          {busy.value ? t(S.busy) : t(S.submit)}
        </button>
        <p id="admin-key-error" class="error" role="alert">
          {error.value}
        </p>
      </form>
    </details>
  );
}
