import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import * as ROUTES from "../../shared/wire/routes.ts";
import { SSO_NO_ROLE, type SsoConfig, type SsoRoleRule, type SsoView } from "../../shared/config/sso-config.ts";
import { api } from "../api.ts";
import { t } from "../i18n.ts";
import { CopyButton } from "../form/copy-button.tsx";
import { Field, fieldAttrs, TextField } from "../form/field.tsx";
import { errorUnder, focusFirstInvalid, formErrors, type FormErrors } from "../form/issues.ts";
import { ROLE_LABELS } from "../roles.ts";
import { SsoRoleRules } from "./sso-role-rules.tsx";

const S = {
  title: { en: "Single sign-on", "zh-CN": "单点登录" },
  intro: {
    en:
      "Your team signs in with your identity provider (OpenID Connect): Okta, Entra ID, Google Workspace, " +
      "Keycloak. Register this console there as a web application with the redirect URI below.",
    "zh-CN":
      "团队通过你的身份提供方(OpenID Connect)登录:Okta、Entra ID、Google Workspace、Keycloak。" +
      "请在其中将本控制台注册为 Web 应用,并填写下方的重定向 URI。",
  },
  redirect: { en: "Redirect URI to register", "zh-CN": "需注册的重定向 URI" },
  name: { en: "Name on the sign-in button", "zh-CN": "登录按钮上的名称" },
  issuer: { en: "Issuer URL", "zh-CN": "颁发者 URL" },
  issuerHint: {
    en: "As the provider's discovery document writes it, e.g. https://clinic.okta.com",
    "zh-CN": "与身份提供方的发现文档一致,例如 https://clinic.okta.com",
  },
  client: { en: "Client ID", "zh-CN": "客户端 ID" },
  secretEnv: { en: "Worker secret holding the client secret", "zh-CN": "存放客户端密钥的 Worker 机密名称" },
  secretHint: {
    en: "Its name only (OIDC_…SECRET): set the secret itself with `wrangler secret put <name>`.",
    "zh-CN": "只填名称(OIDC_…SECRET);密钥本身用 `wrangler secret put <名称>` 设置。",
  },
  secretMissing: {
    en: "The worker secret {name} is not set: sign-ins fail until it is.",
    "zh-CN": "Worker 机密 {name} 尚未设置:设置之前无法登录。",
  },
  scopes: { en: "More scopes (optional, space-separated)", "zh-CN": "附加权限范围(可选,空格分隔)" },
  domains: { en: "Allowed e-mail domains (one per line)", "zh-CN": "允许的电子邮件域名(每行一个)" },
  verified: {
    en: "Only e-mail addresses the provider says are verified",
    "zh-CN": "仅接受身份提供方标明已验证的电子邮件地址",
  },
  claim: { en: "Claim that gives the role", "zh-CN": "决定角色的声明" },
  claimHint: {
    en: "e.g. groups (Okta), roles (Entra ID app roles), realm_access.roles (Keycloak)",
    "zh-CN": "例如 groups(Okta)、roles(Entra ID 应用角色)、realm_access.roles(Keycloak)",
  },
  fallback: { en: "Someone no rule maps", "zh-CN": "未匹配任何规则的人" },
  refuse: { en: "is refused", "zh-CN": "拒绝登录" },
  save: { en: "Save single sign-on", "zh-CN": "保存单点登录设置" },
  off: { en: "Turn single sign-on off", "zh-CN": "关闭单点登录" },
  saved: { en: "Saved.", "zh-CN": "已保存。" },
  turnedOff: { en: "Single sign-on is off.", "zh-CN": "单点登录已关闭。" },
};

const EMPTY = {
  name: "",
  issuer: "",
  clientId: "",
  clientSecretEnv: "",
  scopes: "",
  domains: "",
  requireVerifiedEmail: true,
  roleClaim: "groups",
  roleMap: [] as SsoRoleRule[],
  defaultRole: "refuse" as SsoConfig["defaultRole"],
};
type Draft = typeof EMPTY;

const draftOf = (s: SsoConfig | null): Draft =>
  s ? { ...EMPTY, ...s, domains: s.allowedDomains.join("\n") } : { ...EMPTY, roleMap: [] };

/** Team's single sign-on settings (owners): the provider, who may come in, and the claim that gives roles. */
export function TeamSso() {
  const view = useSignal<SsoView | null>(null);
  const draft = useSignal<Draft>(EMPTY);
  const errors = useSignal<FormErrors>({ fields: {}, summary: "" });
  const status = useSignal("");
  const formRef = useRef<HTMLFormElement>(null);

  const load = () =>
    api.get(ROUTES.adminSso).then(
      (v) => ((view.value = v), (draft.value = draftOf(v.sso))),
      (err) => (errors.value = formErrors(err)),
    );
  useEffect(() => void load(), []);
  const set = (patch: Partial<Draft>) => (draft.value = { ...draft.value, ...patch });

  async function act(run: () => Promise<unknown>, done: string) {
    try {
      await run();
      errors.value = { fields: {}, summary: "" };
      status.value = done;
      await load();
    } catch (err) {
      errors.value = formErrors(err);
      status.value = "";
      focusFirstInvalid(formRef.current);
    }
  }

  function save(e: Event) {
    e.preventDefault();
    const { domains, ...rest } = draft.value;
    const allowedDomains = domains.split(/[\s,]+/).filter(Boolean);
    void act(() => api.put(ROUTES.adminSso, { json: { ...rest, allowedDomains } }), t(S.saved));
  }

  const d = draft.value;
  const err = (path: string) => errorUnder(errors.value, path);
  const v = view.value;
  return (
    <section aria-labelledby="sso-settings-title">
      <h2 id="sso-settings-title">{t(S.title)}</h2>
      <p class="hint">{t(S.intro)}</p>
      {v && (
        <div class="field">
          <label for="sso-redirect">{t(S.redirect)}</label>
          <input id="sso-redirect" readOnly value={v.redirectUri} onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={v.redirectUri} label={t(S.redirect)} />
        </div>
      )}
      {v?.sso && !v.secretSet && <p class="warn">{t(S.secretMissing).replace("{name}", v.sso.clientSecretEnv)}</p>}
      {errors.value.summary && <p role="alert">{errors.value.summary}</p>}
      <form ref={formRef} onSubmit={save} noValidate>
        <TextField
          id="sso-name"
          label={t(S.name)}
          value={d.name}
          onValue={(name) => set({ name })}
          error={err("name")}
        />
        <TextField
          id="sso-issuer"
          label={t(S.issuer)}
          hint={t(S.issuerHint)}
          value={d.issuer}
          onValue={(issuer) => set({ issuer })}
          error={err("issuer")}
        />
        <TextField
          id="sso-client"
          label={t(S.client)}
          value={d.clientId}
          onValue={(clientId) => set({ clientId })}
          error={err("clientId")}
        />
        <TextField
          id="sso-secret-env"
          label={t(S.secretEnv)}
          hint={t(S.secretHint)}
          value={d.clientSecretEnv}
          onValue={(clientSecretEnv) => set({ clientSecretEnv })}
          error={err("clientSecretEnv")}
        />
        <TextField
          id="sso-scopes"
          label={t(S.scopes)}
          value={d.scopes}
          onValue={(scopes) => set({ scopes })}
          error={err("scopes")}
        />
        <TextField
          id="sso-domains"
          label={t(S.domains)}
          multiline={3}
          value={d.domains}
          onValue={(domains) => set({ domains })}
          error={err("allowedDomains")}
        />
        <label class="check">
          <input
            type="checkbox"
            checked={d.requireVerifiedEmail}
            onChange={(e) => set({ requireVerifiedEmail: e.currentTarget.checked })}
          />{" "}
          {t(S.verified)}
        </label>
        <TextField
          id="sso-claim"
          label={t(S.claim)}
          hint={t(S.claimHint)}
          value={d.roleClaim}
          onValue={(roleClaim) => set({ roleClaim })}
          error={err("roleClaim")}
        />
        <SsoRoleRules rules={d.roleMap} error={err("roleMap")} onRules={(roleMap) => set({ roleMap })} />
        <Field id="sso-default" label={t(S.fallback)} error={err("defaultRole")}>
          <select
            {...fieldAttrs("sso-default", err("defaultRole"))}
            value={d.defaultRole}
            onChange={(e) => set({ defaultRole: e.currentTarget.value as Draft["defaultRole"] })}
          >
            {SSO_NO_ROLE.map((r) => (
              <option key={r} value={r}>
                {r === "refuse" ? t(S.refuse) : t(ROLE_LABELS[r])}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit">{t(S.save)}</button>{" "}
        {v?.sso && (
          <button type="button" class="danger" onClick={() => act(() => api.delete(ROUTES.adminSso), t(S.turnedOff))}>
            {t(S.off)}
          </button>
        )}
      </form>
      <p role="status">{status.value}</p>
    </section>
  );
}
