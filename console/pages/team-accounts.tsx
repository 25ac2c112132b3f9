import { useSignal } from "@preact/signals";
import type { AccountView } from "../../shared/admin/accounts-api.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { ROLES, type Role } from "../../shared/admin/roles.ts";
import { api } from "../api.ts";
import { formatTime, t } from "../i18n.ts";
import { TableHead } from "../form/table-head.tsx";
import { ROLE_LABELS } from "../roles.ts";

const S = {
  name: { en: "Name", "zh-CN": "名字" },
  role: { en: "Role", "zh-CN": "角色" },
  roleOf: { en: "Role of {name}", "zh-CN": "{name} 的角色" },
  saveRole: { en: "Save the role of {name}", "zh-CN": "保存 {name} 的角色" },
  email: { en: "E-mail (single sign-on links by it)", "zh-CN": "电子邮件(单点登录据此关联)" },
  emailOf: { en: "E-mail of {name}", "zh-CN": "{name} 的电子邮件" },
  saveEmail: { en: "Save the e-mail of {name}", "zh-CN": "保存 {name} 的电子邮件" },
  methods: { en: "Signs in with", "zh-CN": "登录方式" },
  passkey: { en: "1 passkey", "zh-CN": "1 个通行密钥" },
  passkeys: { en: "{n} passkeys", "zh-CN": "{n} 个通行密钥" },
  sso: { en: "Single sign-on: {issuer}", "zh-CN": "单点登录:{issuer}" },
  unlink: { en: "Unlink {issuer} from {name}", "zh-CN": "解除 {name} 与 {issuer} 的关联" },
  lastSignIn: { en: "Last sign-in", "zh-CN": "最近登录" },
  never: { en: "never", "zh-CN": "从未" },
  actions: { en: "Actions", "zh-CN": "操作" },
  remove: { en: "Remove {name}", "zh-CN": "移除 {name}" },
};

const host = (issuer: string) => {
  try {
    return new URL(issuer).host;
  } catch {
    return issuer;
  }
};

/**
 * Team's accounts (owners): each one's role, the e-mail single sign-on links it by, how it signs in
 * (its passkeys, its provider identities, each of which an owner may unlink), and its removal.
 */
export function TeamAccounts({
  accounts,
  act,
}: {
  accounts: AccountView[];
  act: (run: () => Promise<unknown>) => void;
}) {
  /** Roles and e-mails changed in the table and not saved yet, by account id. */
  const roles = useSignal<Record<string, Role>>({});
  const emails = useSignal<Record<string, string>>({});
  const save = (run: () => Promise<unknown>) =>
    act(async () => {
      await run();
      roles.value = {};
      emails.value = {};
    });
  return (
    <table class="list">
      <TableHead cols={[S.name, S.role, S.email, S.methods, S.lastSignIn, S.actions]} />
      <tbody>
        {accounts.map((a) => {
          const named = (text: { en: string; "zh-CN": string }) => t(text).replace("{name}", a.name);
          const role = roles.value[a.id] ?? a.role;
          const email = emails.value[a.id] ?? a.email;
          return (
            <tr key={a.id}>
              <td>{a.name}</td>
              <td>
                {/* A select changes nothing by itself (arrow keys walk its options): the button saves. */}
                <select
                  aria-label={named(S.roleOf)}
                  value={role}
                  onChange={(e) => (roles.value = { ...roles.value, [a.id]: e.currentTarget.value as Role })}
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {t(ROLE_LABELS[r])}
                    </option>
                  ))}
                </select>{" "}
                <button
                  type="button"
                  disabled={role === a.role}
                  onClick={() =>
                    save(() => api.patch(ROUTES.adminAccount, { params: { account: a.id }, json: { role } }))
                  }
                >
                  {named(S.saveRole)}
                </button>
              </td>
              <td>
                <input
                  type="email"
                  maxLength={254}
                  aria-label={named(S.emailOf)}
                  value={email}
                  onInput={(e) => (emails.value = { ...emails.value, [a.id]: e.currentTarget.value })}
                />{" "}
                <button
                  type="button"
                  disabled={email.trim() === a.email}
                  onClick={() =>
                    save(() =>
                      api.patch(ROUTES.adminAccount, { params: { account: a.id }, json: { email: email.trim() } }),
                    )
                  }
                >
                  {named(S.saveEmail)}
                </button>
              </td>
              <td>
                <ul class="plain">
                  <li>{a.passkeys === 1 ? t(S.passkey) : t(S.passkeys).replace("{n}", String(a.passkeys))}</li>
                  {a.identities.map((i) => (
                    <li key={i.id}>
                      {t(S.sso).replace("{issuer}", host(i.issuer))}{" "}
                      <button
                        type="button"
                        class="secondary"
                        onClick={() =>
                          act(() =>
                            api.delete(ROUTES.adminAccountIdentity, { params: { account: a.id, identity: i.id } }),
                          )
                        }
                      >
                        {named(S.unlink).replace("{issuer}", host(i.issuer))}
                      </button>
                    </li>
                  ))}
                </ul>
              </td>
              <td>{a.lastSignInAt ? formatTime(a.lastSignInAt) : t(S.never)}</td>
              <td>
                <button
                  type="button"
                  class="secondary"
                  onClick={() => act(() => api.delete(ROUTES.adminAccount, { params: { account: a.id } }))}
                >
                  {named(S.remove)}
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
