import { useSignal } from "@preact/signals";
import type { TeamView } from "../../shared/admin/accounts-api.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { ROLES, type Role } from "../../shared/admin/roles.ts";
import { api } from "../api.ts";
import { formatTime, t } from "../i18n.ts";
import { CopyButton } from "../form/copy-button.tsx";
import { TableHead } from "../form/table-head.tsx";
import { ROLE_LABELS } from "../roles.ts";

const S = {
  title: { en: "Admin keys for scripts", "zh-CN": "脚本用的管理密钥" },
  intro: {
    en:
      "A script sends its key in the x-parley-admin-key header and may do what its role may. Each " +
      "key has a name, and the audit trail names it.",
    "zh-CN": "脚本在 x-parley-admin-key 请求头中发送密钥,权限与其角色相同。每个密钥都有名字,审计记录会写明。",
  },
  name: { en: "Name", "zh-CN": "名字" },
  role: { en: "Role", "zh-CN": "角色" },
  created: { en: "Created", "zh-CN": "创建时间" },
  lastUsed: { en: "Last used", "zh-CN": "最近使用" },
  actions: { en: "Actions", "zh-CN": "操作" },
  never: { en: "never", "zh-CN": "从未" },
  keyName: { en: "Key name (what it is for)", "zh-CN": "密钥名字(用途)" },
  keyRole: { en: "Key role", "zh-CN": "密钥角色" },
  create: { en: "Create a key", "zh-CN": "创建密钥" },
  shown: { en: "The new key (shown once: copy it now)", "zh-CN": "新密钥(只显示一次,请立即复制)" },
  revoke: { en: "Revoke {name}", "zh-CN": "撤销 {name}" },
  bootstrap: {
    en: "The site's admin key (set at setup) still opens this site as owner, in the console and for scripts.",
    "zh-CN": "站点管理密钥(设置时创建)仍可以所有者身份打开本站点(控制台和脚本)。",
  },
  bootstrapRevoke: { en: "Revoke the site's admin key", "zh-CN": "撤销站点管理密钥" },
};

/** The Team page's keys: named, scoped keys for scripts, and the site's bootstrap admin key. */
export function TeamKeys({ team, act }: { team: TeamView; act: (run: () => Promise<unknown>) => Promise<void> }) {
  const name = useSignal("");
  const role = useSignal<Role>("viewer");
  const created = useSignal("");

  async function create(e: Event) {
    e.preventDefault();
    await act(async () => {
      const k = await api.post(ROUTES.adminKeys, { json: { name: name.value, role: role.value } });
      created.value = k.key;
      name.value = "";
    });
  }

  const revoke = (id: string) => act(() => api.delete(ROUTES.adminKeyRevoke, { params: { key: id } }));
  return (
    <>
      <h2>{t(S.title)}</h2>
      <p>{t(S.intro)}</p>
      {team.bootstrapKey && (
        <p class="warn">
          {t(S.bootstrap)}{" "}
          <button type="button" class="secondary" onClick={() => revoke("bootstrap")}>
            {t(S.bootstrapRevoke)}
          </button>
        </p>
      )}
      {team.keys.length > 0 && (
        <table class="list">
          <TableHead cols={[S.name, S.role, S.created, S.lastUsed, S.actions]} />
          <tbody>
            {team.keys.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>{t(ROLE_LABELS[k.role])}</td>
                <td>{formatTime(k.createdAt)}</td>
                <td>{k.lastUsedAt ? formatTime(k.lastUsedAt) : t(S.never)}</td>
                <td>
                  <button type="button" class="secondary" onClick={() => revoke(k.id)}>
                    {t(S.revoke).replace("{name}", k.name)}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form onSubmit={create} class="inline-form">
        <div class="field">
          <label for="key-name">{t(S.keyName)}</label>
          <input
            id="key-name"
            required
            maxLength={60}
            value={name.value}
            onInput={(e) => (name.value = e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="key-role">{t(S.keyRole)}</label>
          <select id="key-role" value={role.value} onChange={(e) => (role.value = e.currentTarget.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(ROLE_LABELS[r])}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">{t(S.create)}</button>
      </form>
      {created.value && (
        <div class="field">
          <label for="key-created">{t(S.shown)}</label>
          <input id="key-created" readOnly value={created.value} onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={created.value} label={t(S.shown)} />
        </div>
      )}
    </>
  );
}
