import { ROLES } from "../../shared/admin/roles.ts";
import type { SsoRoleRule } from "../../shared/config/sso-config.ts";
import { t } from "../i18n.ts";
import { ROLE_LABELS } from "../roles.ts";

const S = {
  rules: { en: "Claim values and their roles", "zh-CN": "声明值及其角色" },
  value: { en: "Claim value, rule {n}", "zh-CN": "声明值,规则 {n}" },
  ruleRole: { en: "Role, rule {n}", "zh-CN": "角色,规则 {n}" },
  removeRule: { en: "Remove rule {n}", "zh-CN": "删除规则 {n}" },
  addRule: { en: "Add a rule", "zh-CN": "添加规则" },
};

/** The single sign-on's rules, one row each: a claim value (a group, a role) and the role it gives. */
export function SsoRoleRules(props: { rules: SsoRoleRule[]; error?: string; onRules: (r: SsoRoleRule[]) => void }) {
  const { rules, error, onRules } = props;
  const setRule = (i: number, patch: Partial<SsoRoleRule>) =>
    onRules(rules.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset>
      <legend>{t(S.rules)}</legend>
      {error && <p class="field-error">{error}</p>}
      {rules.map((r, i) => {
        const n = String(i + 1);
        return (
          <div class="inline-form" key={i}>
            <input
              aria-label={t(S.value).replace("{n}", n)}
              value={r.value}
              onInput={(e) => setRule(i, { value: e.currentTarget.value })}
            />
            <select
              aria-label={t(S.ruleRole).replace("{n}", n)}
              value={r.role}
              onChange={(e) => setRule(i, { role: e.currentTarget.value as SsoRoleRule["role"] })}
            >
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {t(ROLE_LABELS[role])}
                </option>
              ))}
            </select>
            <button type="button" class="secondary" onClick={() => onRules(rules.filter((_r, j) => j !== i))}>
              {t(S.removeRule).replace("{n}", n)}
            </button>
          </div>
        );
      })}
      <button type="button" onClick={() => onRules([...rules, { value: "", role: "staff" }])}>
        {t(S.addRule)}
      </button>
    </fieldset>
  );
}
