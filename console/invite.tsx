import { useSignal } from "@preact/signals";
import { useEffect, useMemo } from "preact/hooks";
import type { InvitationInfo } from "../shared/admin/accounts-api.ts";
import { ApiFailure } from "./api.ts";
import { formatTime, t } from "./i18n.ts";
import { acceptInvitation, invitationInfo } from "./passkeys.ts";
import { navigate } from "./router.ts";
import { ROLE_LABELS } from "./roles.ts";

const S = {
  title: { en: "Join the team of {site}", "zh-CN": "加入 {site} 的团队" },
  intro: {
    en:
      "You are invited as {role}. Choose the name your colleagues and visitors will see, then " +
      "create a passkey on this device: it is how you sign in, no password.",
    "zh-CN": "您受邀担任{role}。请填写同事和访客看到的名字,然后在此设备上创建通行密钥:以后用它登录,无需密码。",
  },
  name: { en: "Your name", "zh-CN": "您的名字" },
  submit: { en: "Create my passkey and sign in", "zh-CN": "创建通行密钥并登录" },
  busy: { en: "Waiting for your passkey…", "zh-CN": "正在等待通行密钥…" },
  loading: { en: "Reading the invitation…", "zh-CN": "正在读取邀请…" },
  expires: { en: "This link works once, until {time}.", "zh-CN": "此链接只能使用一次,有效期至 {time}。" },
  bad: { en: "This invitation cannot be used: {m}", "zh-CN": "此邀请无法使用:{m}" },
  failed: { en: "Not done: {m}", "zh-CN": "未完成:{m}" },
};

/** The invitation's parts: the site from the query, the secret from the fragment (never in a URL the worker gets). */
function linkParts(): { siteKey: string; token: string } {
  return { siteKey: new URLSearchParams(location.search).get("site") ?? "", token: location.hash.slice(1) };
}

/**
 * /console/invite?site=<site key>#<secret>: an invitation an owner copied to a new team member. The
 * person names themself and creates a passkey; the worker makes their account and signs them in.
 */
export function Invite() {
  const link = useMemo(linkParts, []);
  const info = useSignal<InvitationInfo | null>(null);
  const name = useSignal("");
  const error = useSignal("");
  const busy = useSignal(false);
  useEffect(() => {
    invitationInfo(link.siteKey, link.token).then(
      (i) => {
        info.value = i;
        name.value = i.name;
      },
      (err) => (error.value = t(S.bad).replace("{m}", err instanceof Error ? err.message : String(err))),
    );
  }, []);

  async function submit(e: Event) {
    e.preventDefault();
    busy.value = true;
    error.value = "";
    try {
      await acceptInvitation(link.siteKey, link.token, name.value.trim());
      navigate("", true);
    } catch (err) {
      const f = err instanceof ApiFailure ? err.message : err instanceof Error ? err.message : String(err);
      error.value = t(S.failed).replace("{m}", f);
    } finally {
      busy.value = false;
    }
  }

  const i = info.value;
  return (
    <main class="sign-in" id="main">
      <h1>{t(S.title).replace("{site}", link.siteKey)}</h1>
      {!i && !error.value && <p aria-busy="true">{t(S.loading)}</p>}
      {i && (
        <>
          <p>{t(S.intro).replace("{role}", t(ROLE_LABELS[i.role]))}</p>
          <p class="muted">{t(S.expires).replace("{time}", formatTime(i.expiresAt))}</p>
          <form onSubmit={submit}>
            <label for="invite-name">{t(S.name)}</label>
            <input
              id="invite-name"
              autocomplete="name"
              required
              maxLength={60}
              value={name.value}
              onInput={(e) => (name.value = e.currentTarget.value)}
            />
            <button type="submit" disabled={busy.value || !name.value.trim()}>
              {busy.value ? t(S.busy) : t(S.submit)}
            </button>
          </form>
        </>
      )}
      <p class="error" role="alert">
        {error.value}
      </p>
    </main>
  );
}
