import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { TeamView } from "../../shared/admin/accounts-api.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { ROLES, type Role } from "../../shared/admin/roles.ts";
import { api, session } from "../api.ts";
import { formatTime, t } from "../i18n.ts";
import { CopyButton } from "../form/copy-button.tsx";
import { TableHead } from "../form/table-head.tsx";
import { ROLE_LABELS } from "../roles.ts";
import { TeamAccounts } from "./team-accounts.tsx";
import { TeamKeys } from "./team-keys.tsx";
import { TeamSso } from "./team-sso.tsx";

const S = {
  title: { en: "Team", "zh-CN": "团队" },
  intro: {
    en:
      "Everyone who works on this site has an account of their own and signs in with a passkey or the " +
      "site's single sign-on. Owners change roles and remove accounts; a site always keeps one owner.",
    "zh-CN":
      "每位成员都有自己的账户,用通行密钥或站点的单点登录登录。所有者可更改角色和移除账户;站点始终至少保留一位所有者。",
  },
  accounts: { en: "Accounts", "zh-CN": "账户" },
  none: {
    en: "No accounts yet. Create an invitation for yourself as owner, open it, and create your passkey.",
    "zh-CN": "还没有账户。请先为自己创建一个所有者邀请,打开链接并创建通行密钥。",
  },
  name: { en: "Name", "zh-CN": "名字" },
  role: { en: "Role", "zh-CN": "角色" },
  inviteEmail: {
    en: "Their e-mail (optional: they may accept by single sign-on)",
    "zh-CN": "对方的电子邮件(可选:对方可通过单点登录接受邀请)",
  },
  actions: { en: "Actions", "zh-CN": "操作" },
  invite: { en: "Invite someone", "zh-CN": "邀请成员" },
  inviteName: { en: "Their name (they may change it)", "zh-CN": "对方的名字(对方可修改)" },
  create: { en: "Create an invitation link", "zh-CN": "创建邀请链接" },
  link: { en: "Invitation link (works once, for 24 hours)", "zh-CN": "邀请链接(仅可使用一次,24 小时内有效)" },
  pending: { en: "Invitations waiting", "zh-CN": "待接受的邀请" },
  expires: { en: "Expires", "zh-CN": "过期时间" },
  revokeInvite: { en: "Revoke the invitation for {name}", "zh-CN": "撤销给 {name} 的邀请" },
  anyone: { en: "(no name)", "zh-CN": "(未填名字)" },
  done: { en: "Done.", "zh-CN": "已完成。" },
  failed: { en: "Not done: {m}", "zh-CN": "未完成:{m}" },
};

const roleText = (r: Role) => t(ROLE_LABELS[r]);

/** /console/team (owners): the accounts and their roles, invitations, and the site's admin keys. */
export default function Team() {
  const team = useSignal<TeamView | null>(null);
  const status = useSignal("");
  const link = useSignal("");
  const inviteRole = useSignal<Role>("staff");
  const inviteName = useSignal("");
  const inviteEmail = useSignal("");

  const load = () =>
    api.get(ROUTES.adminAccounts).then(
      (v) => {
        team.value = v;
      },
      (e) => (status.value = t(S.failed).replace("{m}", e.message)),
    );
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

  async function invite(e: Event) {
    e.preventDefault();
    await act(async () => {
      const name = inviteName.value.trim();
      const email = inviteEmail.value.trim();
      const created = await api.post(ROUTES.adminInvitations, {
        json: { role: inviteRole.value, ...(name ? { name } : {}), ...(email ? { email } : {}) },
      });
      const site = encodeURIComponent(session.value?.site ?? "");
      link.value = `${location.origin}/console/invite?site=${site}#${created.token}`;
      inviteName.value = "";
      inviteEmail.value = "";
    });
  }

  const v = team.value;
  return (
    <section aria-labelledby="team-title">
      <h1 id="team-title">{t(S.title)}</h1>
      <p>{t(S.intro)}</p>
      <p role="status">{status.value}</p>
      <h2>{t(S.accounts)}</h2>
      {v && !v.accounts.length && <p class="warn">{t(S.none)}</p>}
      {v && v.accounts.length > 0 && <TeamAccounts accounts={v.accounts} act={act} />}
      <h2>{t(S.invite)}</h2>
      <form onSubmit={invite} class="inline-form">
        <div class="field">
          <label for="invite-role">{t(S.role)}</label>
          <select
            id="invite-role"
            value={inviteRole.value}
            onChange={(e) => (inviteRole.value = e.currentTarget.value as Role)}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {roleText(r)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="invite-name">{t(S.inviteName)}</label>
          <input
            id="invite-name"
            maxLength={60}
            value={inviteName.value}
            onInput={(e) => (inviteName.value = e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="invite-email">{t(S.inviteEmail)}</label>
          <input
            id="invite-email"
            type="email"
            maxLength={254}
            value={inviteEmail.value}
            onInput={(e) => (inviteEmail.value = e.currentTarget.value)}
          />
        </div>
        <button type="submit">{t(S.create)}</button>
      </form>
      {link.value && (
        <div class="field">
          <label for="invite-link">{t(S.link)}</label>
          <input id="invite-link" readOnly value={link.value} onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={link.value} label={t(S.link)} />
        </div>
      )}
      {v && v.invitations.length > 0 && (
        <>
          <h2>{t(S.pending)}</h2>
          <table class="list">
            <TableHead cols={[S.name, S.role, S.expires, S.actions]} />
            <tbody>
              {v.invitations.map((i) => (
                <tr key={i.id}>
                  <td>{i.name || t(S.anyone)}</td>
                  <td>{roleText(i.role)}</td>
                  <td>{formatTime(i.expiresAt)}</td>
                  <td>
                    <button
                      type="button"
                      class="secondary"
                      onClick={() => act(() => api.delete(ROUTES.adminInvitation, { params: { invitation: i.id } }))}
                    >
                      {t(S.revokeInvite).replace("{name}", i.name || t(S.anyone))}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {v && <TeamKeys team={v} act={act} />}
      <TeamSso />
    </section>
  );
}
