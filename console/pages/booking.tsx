import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { CALENDAR_PROVIDERS, type BookingSettingsView } from "../../shared/config/booking-config.ts";
import type { LocalizedText } from "../../shared/config/localized-text.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api } from "../api.ts";
import { t } from "../i18n.ts";
import type { PageProps } from "../pages.ts";
import { Field, fieldAttrs, TextField } from "../form/field.tsx";
import { focusFirstInvalid, formErrors, type FormErrors } from "../form/issues.ts";
import { bookingBody, bookingForm, type BookingForm } from "./booking-form.ts";

const S = {
  title: { en: "Booking", "zh-CN": "预约" },
  intro: {
    en: "The calendar visitors book visits on in the chat. The agents with booking on (Agents page) offer it.",
    "zh-CN": "访客在聊天中预约就诊所用的日历。开启了预约功能的助手(“助手”页面)会提供预约。",
  },
  none: { en: "No calendar is connected.", "zh-CN": "尚未连接日历。" },
  provider: { en: "Calendar", "zh-CN": "日历服务" },
  providers: { calcom: { en: "Cal.com (API v2)", "zh-CN": "Cal.com(API v2)" } },
  eventType: { en: "Event type id", "zh-CN": "活动类型 ID" },
  eventTypeHint: {
    en: "Cal.com: Event Types, the number in the event type's address.",
    "zh-CN": "Cal.com:活动类型页面地址中的数字。",
  },
  secret: { en: "Worker secret holding the API key", "zh-CN": "保存 API 密钥的 Worker 机密名称" },
  secretHint: {
    en:
      "A name starting CALCOM_. Set the key on the worker: npx wrangler secret put CALCOM_API_KEY. " +
      "The key itself is never typed or shown here.",
    "zh-CN":
      "以 CALCOM_ 开头的名称。在 Worker 上设置密钥:npx wrangler secret put CALCOM_API_KEY。" +
      "此处从不输入或显示密钥本身。",
  },
  keySet: { en: "The worker has this secret set.", "zh-CN": "Worker 已设置此机密。" },
  keyMissing: {
    en: "The worker does not have this secret: booking answers “misconfigured” until it is set.",
    "zh-CN": "Worker 尚未设置此机密:设置之前,预约会返回“配置错误”。",
  },
  timeZone: { en: "The calendar's time zone (e.g. Europe/Berlin)", "zh-CN": "日历的时区(如 Asia/Shanghai)" },
  timeZoneHint: {
    en: "Used for a visit when the visitor's browser names no time zone; visitors see times in their own.",
    "zh-CN": "访客浏览器未提供时区时使用;访客看到的是自己时区的时间。",
  },
  daysAhead: { en: "How far ahead visitors may book (days, 1 to 30)", "zh-CN": "可提前预约的天数(1 至 30)" },
  baseUrl: { en: "API address", "zh-CN": "API 地址" },
  baseUrlHint: {
    en: "https://api.cal.com, or your own Cal.com instance (a public https address).",
    "zh-CN": "https://api.cal.com,或您自己的 Cal.com 实例(公网 https 地址)。",
  },
  demo: {
    en: "Demo mode: the demo site books against the demo calendar, whatever is set here.",
    "zh-CN": "演示模式:演示站点使用演示日历预约,与此处设置无关。",
  },
  save: { en: "Save calendar", "zh-CN": "保存日历" },
  saved: { en: "Saved.", "zh-CN": "已保存。" },
  disconnect: { en: "Disconnect the calendar", "zh-CN": "断开日历" },
  disconnected: { en: "Disconnected: agents no longer offer booking.", "zh-CN": "已断开:助手不再提供预约。" },
  loading: { en: "Loading…", "zh-CN": "加载中…" },
};

/** Booking: the site's calendar connector (owners); the key stays a worker secret, named here, never shown. */
export default function Booking(_: PageProps) {
  const view = useSignal<BookingSettingsView | null>(null);
  const form = useSignal<BookingForm>(bookingForm(null));
  const errors = useSignal<FormErrors>({ fields: {}, summary: "" });
  const status = useSignal("");
  const busy = useSignal(false);
  const formRef = useRef<HTMLFormElement>(null);

  function fill(v: BookingSettingsView) {
    view.value = v;
    form.value = bookingForm(v.booking);
  }
  useEffect(() => {
    api.get(ROUTES.adminBooking).then(fill, (err) => (errors.value = formErrors(err)));
  }, []);

  async function send(method: "PUT" | "DELETE", done: LocalizedText) {
    busy.value = true;
    status.value = "";
    try {
      const json = method === "PUT" ? bookingBody(form.value) : undefined;
      fill(await (method === "PUT" ? api.put(ROUTES.adminBooking, { json }) : api.delete(ROUTES.adminBooking)));
      errors.value = { fields: {}, summary: "" };
      status.value = t(done);
    } catch (err) {
      errors.value = formErrors(err);
      focusFirstInvalid(formRef.current);
    } finally {
      busy.value = false;
    }
  }

  const v = view.value;
  const err = (path: string) => errors.value.fields[path];
  const text = (key: keyof BookingForm, label: { en: string; "zh-CN": string }, hint?: string) => (
    <TextField
      id={`booking-${key}`}
      label={t(label)}
      value={form.value[key]}
      onValue={(x) => (form.value = { ...form.value, [key]: x })}
      error={err(key)}
      hint={hint}
    />
  );
  const connected = Boolean(v?.booking);
  return (
    <section aria-labelledby="booking-title">
      <h1 id="booking-title">{t(S.title)}</h1>
      <p>{t(S.intro)}</p>
      {!v && !errors.value.summary && <p aria-busy="true">{t(S.loading)}</p>}
      {v && (
        <form
          ref={formRef}
          class="settings"
          onSubmit={(e) => (e.preventDefault(), void send("PUT", S.saved))}
          noValidate
        >
          {v.demo && <p class="hint">{t(S.demo)}</p>}
          {!connected && <p>{t(S.none)}</p>}
          <Field id="booking-provider" label={t(S.provider)} error={err("provider")}>
            <select
              {...fieldAttrs("booking-provider", err("provider"))}
              value={form.value.provider}
              onChange={(e) => (form.value = { ...form.value, provider: e.currentTarget.value })}
            >
              {CALENDAR_PROVIDERS.map((p) => (
                <option key={p} value={p}>
                  {t(S.providers[p])}
                </option>
              ))}
            </select>
          </Field>
          {text("eventTypeId", S.eventType, t(S.eventTypeHint))}
          {text("apiKeySecret", S.secret, t(S.secretHint))}
          {connected && (
            <p role="note" class="hint" id="booking-key-state">
              {t(v.keySet ? S.keySet : S.keyMissing)}
            </p>
          )}
          {text("timeZone", S.timeZone, t(S.timeZoneHint))}
          {text("daysAhead", S.daysAhead)}
          {text("baseUrl", S.baseUrl, t(S.baseUrlHint))}
          <button type="submit" disabled={busy.value}>
            {t(S.save)}
          </button>{" "}
          {connected && (
            <button
              type="button"
              class="danger"
              disabled={busy.value}
              onClick={() => void send("DELETE", S.disconnected)}
            >
              {t(S.disconnect)}
            </button>
          )}
          <p role="status">{status.value}</p>
        </form>
      )}
      <p role="alert">{errors.value.summary}</p>
    </section>
  );
}
