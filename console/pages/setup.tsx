import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { SiteView } from "../../shared/wire/admin-answers.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api } from "../api.ts";
import { t } from "../i18n.ts";
import type { PageProps } from "../pages.ts";
import { Field, fieldAttrs, TextField } from "../form/field.tsx";
import { errorUnder, focusFirstInvalid, formErrors, type FormErrors } from "../form/issues.ts";
import { EmbedPanel } from "./embed-panel.tsx";
import { TakeoverFields } from "./setup-takeover.tsx";
import { takeoverBody, takeoverForm, type TakeoverForm } from "./takeover-form.ts";
import { PrivacyFields, privacyForm, type PrivacyForm } from "./setup-privacy.tsx";

const S = {
  title: { en: "Setup", "zh-CN": "站点设置" },
  settings: { en: "Site settings", "zh-CN": "站点参数" },
  origins: { en: "Allowed origins", "zh-CN": "允许的来源" },
  originsHint: {
    en: "The pages that may embed the chat, as https://www.example.com (no path).",
    "zh-CN": "可以嵌入聊天的网页,例如 https://www.example.com(不带路径)。",
  },
  origin: { en: "Origin {n}", "zh-CN": "来源 {n}" },
  addOrigin: { en: "Add an origin", "zh-CN": "添加来源" },
  remove: { en: "Remove origin {n}", "zh-CN": "删除来源 {n}" },
  models: { en: "Other models a request may name", "zh-CN": "请求可指定的其他模型" },
  modelsHint: {
    en: "Comma-separated; empty: each agent's own model only.",
    "zh-CN": "用逗号分隔;留空则只用各助手自己的模型。",
  },
  maxTokens: { en: "Max tokens per reply (empty: the agents' caps)", "zh-CN": "每次回复的最大令牌数(留空:按助手设置)" },
  sessionPerMinute: { en: "Requests a minute per conversation", "zh-CN": "每个对话每分钟请求数" },
  ipPerMinute: { en: "Requests a minute per visitor address", "zh-CN": "每个访客地址每分钟请求数" },
  sitePerDay: { en: "Token budget per day (site)", "zh-CN": "每日令牌预算(站点)" },
  perSession: { en: "Token budget per conversation", "zh-CN": "每个对话的令牌预算" },
  retention: { en: "Keep conversations for (days)", "zh-CN": "对话保留天数" },
  auditRetention: { en: "Keep audit entries for (days; 2190 is 6 years)", "zh-CN": "审计记录保留天数(2190 天即 6 年)" },
  idle: { en: "Sign a console session out after it sits unused (minutes)", "zh-CN": "控制台闲置多久后自动退出(分钟)" },
  deskDebounce: { en: "Strategy desk: quiet time before a run (ms)", "zh-CN": "策略台:运行前的静默时间(毫秒)" },
  deskTokens: { en: "Strategy desk: tokens per day", "zh-CN": "策略台:每日令牌数" },
  deskAuto: { en: "Strategy desk: promote passing candidates by itself", "zh-CN": "策略台:自动发布通过审核的版本" },
  deskQuorum: {
    en: "Strategy desk: sessions that must make the same complaint before visitors' requests alone promote",
    "zh-CN": "策略台:仅凭访客请求自动发布前,需要多少个不同会话提出同一意见",
  },
  deskQuorumHint: {
    en: "At least 2. A note of yours among the requests is enough on its own.",
    "zh-CN": "至少为 2。请求中有你的备注时无需满足此数。",
  },
  save: { en: "Save settings", "zh-CN": "保存设置" },
  saved: { en: "Saved. Every visitor gets it within {s} s.", "zh-CN": "已保存。{s} 秒内对所有访客生效。" },
  loading: { en: "Loading…", "zh-CN": "加载中…" },
};

/** A number field's text as sent: a number when it is one, else the text, which the worker refuses at the field. */
const num = (v: string) => (v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v);

/** Setup: the site's settings (errors at each field), then the embed snippets and a live preview. */
export default function Setup(_: PageProps) {
  const view = useSignal<SiteView | null>(null);
  const form = useSignal<Record<string, string>>({});
  const origins = useSignal<string[]>([]);
  const autoPromote = useSignal(false);
  const takeover = useSignal<TakeoverForm>(takeoverForm(undefined));
  const privacy = useSignal<PrivacyForm>(privacyForm({}));
  const hoursError = useSignal<string | undefined>(undefined);
  const errors = useSignal<FormErrors>({ fields: {}, summary: "" });
  const status = useSignal("");
  const busy = useSignal(false);
  const formRef = useRef<HTMLFormElement>(null);

  function fill(v: SiteView) {
    const s = v.site;
    view.value = v;
    origins.value = [...s.allowedOrigins];
    autoPromote.value = s.desk.autoPromote;
    takeover.value = takeoverForm(s.takeover);
    privacy.value = privacyForm(s);
    form.value = {
      models: s.models.join(", "),
      maxTokens: s.maxTokens === undefined ? "" : String(s.maxTokens),
      sessionPerMinute: String(s.rateLimits.sessionPerMinute),
      ipPerMinute: String(s.rateLimits.ipPerMinute),
      sitePerDay: String(s.budgets.sitePerDay),
      perSession: String(s.budgets.perSession),
      retentionDays: String(s.retentionDays),
      auditRetentionDays: String(s.auditRetentionDays),
      consoleIdleMinutes: String(s.consoleIdleMinutes),
      debounceMs: String(s.desk.debounceMs),
      dailyTokens: String(s.desk.dailyTokens),
      visitorQuorum: String(s.desk.visitorQuorum),
    };
  }
  useEffect(() => {
    api.get(ROUTES.adminSite).then(fill, (err) => (errors.value = formErrors(err)));
  }, []);

  async function save(e: Event) {
    e.preventDefault();
    const f = form.value;
    const handover = takeoverBody(takeover.value);
    hoursError.value = "error" in handover ? handover.error : undefined;
    if ("error" in handover) return focusFirstInvalid(formRef.current);
    busy.value = true;
    status.value = "";
    try {
      const answer = await api.put(ROUTES.adminSite, {
        json: {
          allowedOrigins: origins.value.map((o) => o.trim()),
          models: f.models
            .split(",")
            .map((m) => m.trim())
            .filter(Boolean),
          ...(f.maxTokens.trim() ? { maxTokens: num(f.maxTokens) } : {}),
          rateLimits: { sessionPerMinute: num(f.sessionPerMinute), ipPerMinute: num(f.ipPerMinute) },
          budgets: { sitePerDay: num(f.sitePerDay), perSession: num(f.perSession) },
          retentionDays: num(f.retentionDays),
          auditRetentionDays: num(f.auditRetentionDays),
          consoleIdleMinutes: num(f.consoleIdleMinutes),
          desk: {
            debounceMs: num(f.debounceMs),
            dailyTokens: num(f.dailyTokens),
            autoPromote: autoPromote.value,
            visitorQuorum: num(f.visitorQuorum),
          },
          takeover: handover.body,
          redactTraces: privacy.value.redactTraces,
          ...(privacy.value.keepNothingMinutes.trim()
            ? { keepNothingMinutes: num(privacy.value.keepNothingMinutes) }
            : {}),
        },
      });
      fill(answer);
      errors.value = { fields: {}, summary: "" };
      status.value = t(S.saved).replace("{s}", String(answer.takesEffectWithinMs / 1000));
    } catch (err) {
      errors.value = formErrors(err);
      focusFirstInvalid(formRef.current);
    } finally {
      busy.value = false;
    }
  }

  const v = view.value;
  const err = (path: string) => errorUnder(errors.value, path);
  const text = (key: string, label: { en: string; "zh-CN": string }, path: string, hint?: string) => (
    <TextField
      id={`set-${key}`}
      label={t(label)}
      value={form.value[key] ?? ""}
      onValue={(x) => (form.value = { ...form.value, [key]: x })}
      error={err(path)}
      hint={hint}
    />
  );
  return (
    <section aria-labelledby="setup-title">
      <h1 id="setup-title">{t(S.title)}</h1>
      {!v && !errors.value.summary && <p aria-busy="true">{t(S.loading)}</p>}
      {v && (
        <form ref={formRef} onSubmit={save} class="settings" noValidate>
          <h2>{t(S.settings)}</h2>
          <fieldset>
            <legend>{t(S.origins)}</legend>
            <p id="origins-hint" class="hint">
              {t(S.originsHint)}
            </p>
            {origins.value.map((o, i) => {
              const id = `origin-${i}`;
              const label = t(S.origin).replace("{n}", String(i + 1));
              const e = err(`allowedOrigins.${i}`);
              return (
                <Field key={i} id={id} label={label} error={e}>
                  <span class="row">
                    <input
                      {...fieldAttrs(id, e, "origins-hint")}
                      value={o}
                      inputMode="url"
                      onInput={(ev) =>
                        (origins.value = origins.value.map((x, j) => (j === i ? ev.currentTarget.value : x)))
                      }
                    />
                    <button
                      type="button"
                      class="secondary"
                      onClick={() => (origins.value = origins.value.filter((_, j) => j !== i))}
                    >
                      {t(S.remove).replace("{n}", String(i + 1))}
                    </button>
                  </span>
                </Field>
              );
            })}
            {err("allowedOrigins") && !origins.value.length && <p class="field-error">{err("allowedOrigins")}</p>}
            <button type="button" class="secondary" onClick={() => (origins.value = [...origins.value, ""])}>
              {t(S.addOrigin)}
            </button>
          </fieldset>
          {text("models", S.models, "models", t(S.modelsHint))}
          {text("maxTokens", S.maxTokens, "maxTokens")}
          {text("sessionPerMinute", S.sessionPerMinute, "rateLimits.sessionPerMinute")}
          {text("ipPerMinute", S.ipPerMinute, "rateLimits.ipPerMinute")}
          {text("sitePerDay", S.sitePerDay, "budgets.sitePerDay")}
          {text("perSession", S.perSession, "budgets.perSession")}
          {text("retentionDays", S.retention, "retentionDays")}
          {text("auditRetentionDays", S.auditRetention, "auditRetentionDays")}
          {text("consoleIdleMinutes", S.idle, "consoleIdleMinutes")}
          {text("debounceMs", S.deskDebounce, "desk.debounceMs")}
          {text("dailyTokens", S.deskTokens, "desk.dailyTokens")}
          <div class="field">
            <label class="check">
              <input
                type="checkbox"
                checked={autoPromote.value}
                onChange={(e) => (autoPromote.value = e.currentTarget.checked)}
              />{" "}
              {t(S.deskAuto)}
            </label>
          </div>
          {text("visitorQuorum", S.deskQuorum, "desk.visitorQuorum", t(S.deskQuorumHint))}
          <TakeoverFields
            form={takeover.value}
            onForm={(x) => (takeover.value = x)}
            err={err}
            hoursError={hoursError.value}
          />
          <PrivacyFields
            form={privacy.value}
            onForm={(x) => (privacy.value = x)}
            jurisdiction={v.site.jurisdiction}
            err={err}
          />
          <button type="submit" disabled={busy.value}>
            {t(S.save)}
          </button>
          <p role="status">{status.value}</p>
        </form>
      )}
      <p role="alert">{errors.value.summary}</p>
      {v && <EmbedPanel siteKey={v.site.siteKey} agents={v.site.agents} />}
    </section>
  );
}
