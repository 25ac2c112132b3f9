import type { StoredAgent } from "../../shared/wire/admin-answers.ts";
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { STRATEGIES } from "../../shared/config/agent-config.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api } from "../api.ts";
import { t } from "../i18n.ts";
import { href, navigate, onLinkClick } from "../router.ts";
import { Field, fieldAttrs, TextField } from "../form/field.tsx";
import { Preview } from "../form/preview.tsx";
import { errorUnder, focusFirstInvalid, formErrors, type FormErrors } from "../form/issues.ts";
import { toAgent, toForm, type Form } from "./agent-form.ts";
import { DraftPanel } from "./agent-draft.tsx";
import type { LocalizedText } from "../../shared/config/localized-text.ts";
import { McpToolPicker } from "./agent-mcp-tools.tsx";

const S = {
  back: { en: "All agents", "zh-CN": "全部助手" },
  title: { en: "Agent {a}", "zh-CN": "助手 {a}" },
  nameEn: { en: "Name (English)", "zh-CN": "名称(英文)" },
  nameZh: { en: "Name (Chinese)", "zh-CN": "名称(中文)" },
  descEn: { en: "Description (English)", "zh-CN": "简介(英文)" },
  descZh: { en: "Description (Chinese)", "zh-CN": "简介(中文)" },
  greetEn: { en: "Greeting (English)", "zh-CN": "问候语(英文)" },
  greetZh: { en: "Greeting (Chinese)", "zh-CN": "问候语(中文)" },
  starters: { en: "Starter prompts", "zh-CN": "开场提示" },
  startersHint: {
    en: "One a line: English | Chinese.",
    "zh-CN": "每行一个:英文 | 中文。",
  },
  model: { en: "Model", "zh-CN": "模型" },
  strategy: { en: "Calling strategy", "zh-CN": "调用方式" },
  maxTokens: { en: "Max tokens per completion", "zh-CN": "每次补全的最大令牌数" },
  maxSteps: { en: "Steps per visitor message", "zh-CN": "每条访客消息的步数" },
  tools: { en: "Tools", "zh-CN": "工具" },
  toolsHint: {
    en: "Comma-separated tool names, e.g. knowledge_search, record_advice.",
    "zh-CN": "用逗号分隔的工具名。",
  },
  system: { en: "System prompt", "zh-CN": "系统提示词" },
  router: { en: "Router (JSON; empty: no quick path)", "zh-CN": "路由(JSON;留空则不使用快速通道)" },
  stages: { en: "Stages (JSON)", "zh-CN": "阶段(JSON)" },
  notJson: { en: "Not valid JSON: {m}", "zh-CN": "不是有效的 JSON:{m}" },
  guards: { en: "Guards", "zh-CN": "安全防护" },
  emergency: { en: "Emergency detection", "zh-CN": "紧急情况识别" },
  advice: { en: "Advice cards need evidence", "zh-CN": "建议卡片需有依据" },
  compliance: { en: "Compliance check of each reply", "zh-CN": "每条回复的合规检查" },
  booking: { en: "Booking", "zh-CN": "预约" },
  books: {
    en: "Books visits on the site's calendar (the owner connects it on the Booking page)",
    "zh-CN": "在站点日历上预约就诊(由所有者在“预约”页面连接日历)",
  },
  save: { en: "Save agent", "zh-CN": "保存助手" },
  saved: { en: "Saved. Visitors get it within {s} s.", "zh-CN": "已保存。{s} 秒内对访客生效。" },
  del: { en: "Delete agent", "zh-CN": "删除助手" },
  confirm: { en: "Confirm: delete {a}", "zh-CN": "确认删除 {a}" },
  preview: { en: "Live preview (published)", "zh-CN": "实时预览(已发布)" },
  loading: { en: "Loading…", "zh-CN": "加载中…" },
};

/** One agent's editor: the common fields as a form, router and stages as checked JSON; errors at each field. */
export function AgentEditor({ id }: { id: string }) {
  const loaded = useSignal<StoredAgent | null>(null);
  const form = useSignal<Form>({});
  const guards = useSignal({ emergency: false, advice: false, compliance: false });
  const errors = useSignal<FormErrors>({ fields: {}, summary: "" });
  const status = useSignal("");
  const confirming = useSignal(false);
  const formRef = useRef<HTMLFormElement>(null);
  const params = { agent: id };

  function fill(l: StoredAgent) {
    loaded.value = l;
    form.value = toForm(l.agent);
    guards.value = { ...l.agent.guards };
  }
  useEffect(() => {
    api.get(ROUTES.adminAgent, { params }).then(fill, (e) => (errors.value = formErrors(e)));
  }, [id]);

  /** The agent the form shows now, or null with the errors of its JSON fields at their fields. */
  function current(): unknown {
    const base = loaded.value?.agent;
    if (!base) return null;
    const built = toAgent(base, form.value, guards.value, t(S.notJson));
    if ("errors" in built) {
      errors.value = { fields: built.errors, summary: "" };
      focusFirstInvalid(formRef.current);
      return null;
    }
    return built.agent;
  }

  function failed(err: unknown) {
    errors.value = formErrors(err);
    focusFirstInvalid(formRef.current);
  }

  async function save(e: Event) {
    e.preventDefault();
    const agent = current();
    if (agent === null) return;
    status.value = "";
    try {
      const answer = await api.put(ROUTES.adminAgent, { params, json: agent });
      fill(answer);
      errors.value = { fields: {}, summary: "" };
      status.value = t(S.saved).replace("{s}", String(answer.takesEffectWithinMs / 1000));
    } catch (err) {
      failed(err);
    }
  }

  async function remove() {
    if (!confirming.value) return void (confirming.value = true);
    try {
      await api.delete(ROUTES.adminAgent, { params });
      navigate("agents");
    } catch (err) {
      errors.value = formErrors(err);
    }
  }

  const err = (p: string) => errorUnder(errors.value, p);
  const text = (
    key: string,
    label: LocalizedText,
    p: string,
    more: { hint?: string; rows?: number; lang?: string } = {},
  ) => (
    <TextField
      id={`agent-${key}`}
      label={t(label)}
      value={form.value[key] ?? ""}
      onValue={(v) => (form.value = { ...form.value, [key]: v })}
      error={err(p)}
      hint={more.hint}
      multiline={more.rows}
      lang={more.lang}
    />
  );
  const a = loaded.value?.agent;
  return (
    <section aria-labelledby="agent-title">
      <p>
        <a href={href("agents")} onClick={(e) => onLinkClick(e, "agents")}>
          {t(S.back)}
        </a>
      </p>
      <h1 id="agent-title">{t(S.title).replace("{a}", a ? t(a.name) : id)}</h1>
      {!a && !errors.value.summary && <p aria-busy="true">{t(S.loading)}</p>}
      {a && (
        <div class="editor">
          <form ref={formRef} onSubmit={save} noValidate>
            {text("nameEn", S.nameEn, "name.en", { lang: "en" })}
            {text("nameZh", S.nameZh, "name.zh-CN", { lang: "zh-CN" })}
            {text("descEn", S.descEn, "description.en", { lang: "en" })}
            {text("descZh", S.descZh, "description.zh-CN", { lang: "zh-CN" })}
            {text("greetEn", S.greetEn, "greeting.en", { rows: 2, lang: "en" })}
            {text("greetZh", S.greetZh, "greeting.zh-CN", { rows: 2, lang: "zh-CN" })}
            {text("starters", S.starters, "starters", { rows: 3, hint: t(S.startersHint) })}
            {text("model", S.model, "model")}
            <Field id="agent-strategy" label={t(S.strategy)} error={err("strategy")}>
              <select
                {...fieldAttrs("agent-strategy", err("strategy"))}
                value={form.value.strategy}
                onChange={(e) => (form.value = { ...form.value, strategy: e.currentTarget.value })}
              >
                {STRATEGIES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </Field>
            {text("maxTokens", S.maxTokens, "maxTokens")}
            {text("maxSteps", S.maxSteps, "maxSteps")}
            {text("tools", S.tools, "tools", { hint: t(S.toolsHint) })}
            <McpToolPicker tools={form.value.tools} onTools={(x) => (form.value = { ...form.value, tools: x })} />
            {text("system", S.system, "systemPrompt", { rows: 8 })}
            {text("router", S.router, "router", { rows: 6 })}
            {text("stages", S.stages, "stages", { rows: 10 })}
            <fieldset>
              <legend>{t(S.guards)}</legend>
              {(["emergency", "advice", "compliance"] as const).map((g) => (
                <label class="check" key={g}>
                  <input
                    type="checkbox"
                    checked={guards.value[g]}
                    onChange={(e) => (guards.value = { ...guards.value, [g]: e.currentTarget.checked })}
                  />{" "}
                  {t(S[g])}
                </label>
              ))}
            </fieldset>
            <fieldset>
              <legend>{t(S.booking)}</legend>
              <label class="check">
                <input
                  id="agent-booking"
                  type="checkbox"
                  checked={form.value.booking === "on"}
                  onChange={(e) => (form.value = { ...form.value, booking: e.currentTarget.checked ? "on" : "" })}
                />{" "}
                {t(S.books)}
              </label>
            </fieldset>
            <button type="submit">{t(S.save)}</button>{" "}
            <button type="button" class="danger" onClick={remove}>
              {confirming.value ? t(S.confirm).replace("{a}", id) : t(S.del)}
            </button>
            <p role="status">{status.value}</p>
          </form>
          <aside aria-labelledby="agent-preview-title">
            <h2 id="agent-preview-title">{t(S.preview)}</h2>
            <Preview agent={id} />
            <DraftPanel
              id={id}
              current={current}
              onDraft={(agent) => {
                form.value = toForm(agent);
                guards.value = { ...agent.guards };
              }}
              onPublished={(l) => {
                fill(l);
                errors.value = { fields: {}, summary: "" };
              }}
              onError={failed}
            />
          </aside>
        </div>
      )}
      <p role="alert">{errors.value.summary}</p>
    </section>
  );
}
