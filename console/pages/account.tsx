import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { MeView } from "../../shared/admin/accounts-api.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api } from "../api.ts";
import { formatTime, t } from "../i18n.ts";
import { addPasskey, removePasskey } from "../passkeys.ts";
import { TableHead } from "../form/table-head.tsx";
import { ROLE_LABELS } from "../roles.ts";

const S = {
  title: { en: "My account", "zh-CN": "我的账户" },
  who: { en: "You are {name}, {role} of this site.", "zh-CN": "您是 {name},本站点的{role}。" },
  keyOnly: {
    en: "You signed in with the site's admin key: it has no passkeys. Owners invite accounts on the Team page.",
    "zh-CN": "您使用站点管理密钥登录,没有通行密钥。所有者可在“团队”页面邀请账户。",
  },
  passkeys: { en: "Your passkeys", "zh-CN": "您的通行密钥" },
  label: { en: "Name", "zh-CN": "名称" },
  created: { en: "Created", "zh-CN": "创建时间" },
  lastUsed: { en: "Last used", "zh-CN": "最近使用" },
  actions: { en: "Actions", "zh-CN": "操作" },
  never: { en: "never", "zh-CN": "从未" },
  remove: { en: "Remove {label}", "zh-CN": "移除 {label}" },
  newLabel: { en: "Name of the new passkey (e.g. work laptop)", "zh-CN": "新通行密钥的名称(例如:工作电脑)" },
  add: { en: "Add a passkey", "zh-CN": "添加通行密钥" },
  lastOne: {
    en: "Your last way to sign in cannot be removed: add a passkey first.",
    "zh-CN": "不能移除最后一种登录方式,请先添加通行密钥。",
  },
  identities: { en: "Single sign-on", "zh-CN": "单点登录" },
  issuer: { en: "Identity provider", "zh-CN": "身份提供方" },
  email: { en: "E-mail", "zh-CN": "电子邮件" },
  linked: { en: "Linked", "zh-CN": "关联时间" },
  unlink: { en: "Unlink {issuer}", "zh-CN": "解除与 {issuer} 的关联" },
  done: { en: "Done.", "zh-CN": "已完成。" },
  failed: { en: "Not done: {m}", "zh-CN": "未完成:{m}" },
};

/**
 * /console/account: who is signed in, their passkeys (several; add one, remove one) and their single
 * sign-on identities (unlink one); never the last way in.
 */
export default function Account() {
  const me = useSignal<MeView | null>(null);
  const label = useSignal("");
  const status = useSignal("");
  const load = () => api.get(ROUTES.adminMe).then((m) => (me.value = m));
  useEffect(() => void load(), []);

  async function act(run: () => Promise<unknown>) {
    try {
      await run();
      status.value = t(S.done);
    } catch (e) {
      status.value = t(S.failed).replace("{m}", e instanceof Error ? e.message : String(e));
    }
    await load();
  }

  const m = me.value;
  if (!m) return null;
  const ways = m.passkeys.length + m.identities.length;
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">{t(S.title)}</h1>
      <p>{t(S.who).replace("{name}", m.who.name).replace("{role}", t(ROLE_LABELS[m.who.role]))}</p>
      <p role="status">{status.value}</p>
      {m.who.kind !== "account" ? (
        <p>{t(S.keyOnly)}</p>
      ) : (
        <>
          <h2>{t(S.passkeys)}</h2>
          <table class="list">
            <TableHead cols={[S.label, S.created, S.lastUsed, S.actions]} />
            <tbody>
              {m.passkeys.map((p) => (
                <tr key={p.id}>
                  <td>{p.label}</td>
                  <td>{formatTime(p.createdAt)}</td>
                  <td>{p.lastUsedAt ? formatTime(p.lastUsedAt) : t(S.never)}</td>
                  <td>
                    <button
                      type="button"
                      class="secondary"
                      disabled={ways < 2}
                      onClick={() => act(() => removePasskey(p.id))}
                    >
                      {t(S.remove).replace("{label}", p.label)}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {ways < 2 && <p class="muted">{t(S.lastOne)}</p>}
          {m.identities.length > 0 && (
            <>
              <h2>{t(S.identities)}</h2>
              <table class="list">
                <TableHead cols={[S.issuer, S.email, S.linked, S.actions]} />
                <tbody>
                  {m.identities.map((i) => (
                    <tr key={i.id}>
                      <td>{i.issuer}</td>
                      <td>{i.email}</td>
                      <td>{formatTime(i.createdAt)}</td>
                      <td>
                        <button
                          type="button"
                          class="secondary"
                          disabled={ways < 2}
                          onClick={() => act(() => api.delete(ROUTES.adminMyIdentity, { params: { identity: i.id } }))}
                        >
                          {t(S.unlink).replace("{issuer}", i.issuer)}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          <form
            class="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              void act(async () => {
                await addPasskey(label.value.trim());
                label.value = "";
              });
            }}
          >
            <div class="field">
              <label for="passkey-label">{t(S.newLabel)}</label>
              <input
                id="passkey-label"
                maxLength={60}
                value={label.value}
                onInput={(e) => (label.value = e.currentTarget.value)}
              />
            </div>
            <button type="submit">{t(S.add)}</button>
          </form>
        </>
      )}
    </section>
  );
}
