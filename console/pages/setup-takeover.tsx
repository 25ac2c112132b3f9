import { t } from "../i18n.ts";
import { TextField } from "../form/field.tsx";
import type { TakeoverForm } from "./takeover-form.ts";

const S = {
  legend: { en: "Hand conversations to a person", "zh-CN": "转接人工" },
  enabled: {
    en: "Visitors may ask for a person; staff answer from the Live page",
    "zh-CN": "访客可以请求人工客服;工作人员在“实时”页面回复",
  },
  timeZone: { en: "Time zone of the opening hours (e.g. Asia/Shanghai)", "zh-CN": "营业时间的时区(如 Asia/Shanghai)" },
  hours: {
    en: "Opening hours (empty: whenever staff are on the Live page)",
    "zh-CN": "营业时间(留空:有人在“实时”页面即可)",
  },
  hoursHint: { en: "As Mon-Fri 09:00-17:30; Sat 10:00-14:00", "zh-CN": "格式如 Mon-Fri 09:00-17:30; Sat 10:00-14:00" },
  maxWait: {
    en: "Longest wait in the queue (minutes), then the visitor is told nobody is coming",
    "zh-CN": "排队最长等待时间(分钟),超时即告知访客无人接待",
  },
  messageEn: { en: "When nobody is available (English)", "zh-CN": "无人在线时的提示(英文)" },
  messageZh: { en: "When nobody is available (Chinese)", "zh-CN": "无人在线时的提示(中文)" },
  messageHint: {
    en: "Empty: the default text. The contact form follows it.",
    "zh-CN": "留空则用默认文字。其后显示联系表单。",
  },
};

/** The Setup page's takeover settings: the flag, the hours, the longest wait, the message when nobody is available. */
export function TakeoverFields(props: {
  form: TakeoverForm;
  onForm: (f: TakeoverForm) => void;
  err: (path: string) => string | undefined;
  hoursError?: string;
}) {
  const { form, onForm, err } = props;
  const set = (k: keyof TakeoverForm) => (v: string) => onForm({ ...form, [k]: v });
  return (
    <fieldset>
      <legend>{t(S.legend)}</legend>
      <div class="field">
        <label class="check">
          <input
            id="set-takeover"
            type="checkbox"
            checked={form.enabled}
            onChange={(e) => onForm({ ...form, enabled: e.currentTarget.checked })}
          />{" "}
          {t(S.enabled)}
        </label>
      </div>
      <TextField
        id="set-takeover-tz"
        label={t(S.timeZone)}
        value={form.timeZone}
        onValue={set("timeZone")}
        error={err("takeover.hours.timeZone")}
      />
      <TextField
        id="set-takeover-hours"
        label={t(S.hours)}
        value={form.hours}
        onValue={set("hours")}
        error={props.hoursError ?? err("takeover.hours.windows")}
        hint={t(S.hoursHint)}
      />
      <TextField
        id="set-takeover-max-wait"
        label={t(S.maxWait)}
        value={form.maxWait}
        onValue={set("maxWait")}
        error={err("takeover.maxWaitMinutes")}
      />
      <TextField
        id="set-takeover-msg-en"
        label={t(S.messageEn)}
        value={form.messageEn}
        onValue={set("messageEn")}
        error={err("takeover.unavailableMessage")}
        hint={t(S.messageHint)}
      />
      <TextField id="set-takeover-msg-zh" label={t(S.messageZh)} value={form.messageZh} onValue={set("messageZh")} />
    </fieldset>
  );
}
