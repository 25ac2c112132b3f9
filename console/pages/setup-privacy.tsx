import type { SiteConfig } from "../../shared/config/agent-config.ts";
import { t } from "../i18n.ts";
import { TextField } from "../form/field.tsx";

const S = {
  legend: { en: "Visitors' data", "zh-CN": "访客数据" },
  redact: {
    en:
      "Replace e-mail addresses, phone numbers, ID and insurance numbers, birth dates and addresses in traces, " +
      "the conversation list and the CRM webhook with placeholders (the transcript keeps them)",
    "zh-CN":
      "在追踪记录、对话列表和 CRM 回调中,用占位符替换邮箱、电话、证件和保险号码、出生日期和地址(对话记录本身保留)",
  },
  keepNothing: {
    en: "Keep nothing: erase a conversation this many minutes after its last message (empty: keep it the days above)",
    "zh-CN": "不保留:最后一条消息后多少分钟删除对话(留空:按上面的天数保留)",
  },
  keepNothingHint: {
    en: "1 to 1440. The conversation list keeps its counts only. Applies to conversations opened after saving.",
    "zh-CN": "1 至 1440。对话列表只保留计数。对保存后开始的对话生效。",
  },
  where: { en: "Where conversations are kept", "zh-CN": "对话存放位置" },
  placement: {
    none: { en: "Where Cloudflare places them (no jurisdiction)", "zh-CN": "由 Cloudflare 决定(未指定司法辖区)" },
    eu: { en: "In the European Union (Cloudflare's EU jurisdiction)", "zh-CN": "欧盟境内(Cloudflare 欧盟辖区)" },
    fedramp: { en: "In Cloudflare's FedRAMP jurisdiction", "zh-CN": "Cloudflare FedRAMP 辖区" },
  },
  whereHint: {
    en: "Chosen when the site was created: stored conversations cannot follow a change.",
    "zh-CN": "在创建站点时选定:已保存的对话无法随之迁移。",
  },
};

export interface PrivacyForm {
  redactTraces: boolean;
  keepNothingMinutes: string;
}

export const privacyForm = (s: Pick<SiteConfig, "redactTraces" | "keepNothingMinutes">): PrivacyForm => ({
  redactTraces: s.redactTraces === true,
  keepNothingMinutes: s.keepNothingMinutes === undefined ? "" : String(s.keepNothingMinutes),
});

/** The Setup page's privacy settings: redaction, keep nothing, and (to read) the site's jurisdiction. */
export function PrivacyFields(props: {
  form: PrivacyForm;
  onForm: (f: PrivacyForm) => void;
  jurisdiction: SiteConfig["jurisdiction"];
  err: (path: string) => string | undefined;
}) {
  const { form, onForm, err } = props;
  return (
    <fieldset>
      <legend>{t(S.legend)}</legend>
      <div class="field">
        <label class="check">
          <input
            id="set-redact"
            type="checkbox"
            checked={form.redactTraces}
            onChange={(e) => onForm({ ...form, redactTraces: e.currentTarget.checked })}
          />{" "}
          {t(S.redact)}
        </label>
      </div>
      <TextField
        id="set-keep-nothing"
        label={t(S.keepNothing)}
        value={form.keepNothingMinutes}
        onValue={(v) => onForm({ ...form, keepNothingMinutes: v })}
        error={err("keepNothingMinutes")}
        hint={t(S.keepNothingHint)}
      />
      <p class="hint" id="set-where">
        {t(S.where)}: {t(S.placement[props.jurisdiction ?? "none"])}. {t(S.whereHint)}
      </p>
    </fieldset>
  );
}
