import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { KnowledgeSummary } from "../../shared/wire/admin-answers.ts";
import { KNOWLEDGE_FORMATS } from "../../shared/admin/knowledge-doc.ts";
import type { LocalizedText } from "../../shared/config/localized-text.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { KnowledgeHit } from "../../shared/tools/knowledge-search.ts";
import { api } from "../api.ts";
import { formatTime, t } from "../i18n.ts";
import type { PageProps } from "../pages.ts";
import { Field, fieldAttrs, TextField } from "../form/field.tsx";
import { errorUnder, focusFirstInvalid, formErrors, type FormErrors } from "../form/issues.ts";
import { TableHead } from "../form/table-head.tsx";

const S = {
  title: { en: "Knowledge", "zh-CN": "知识库" },
  intro: {
    en: "The documents the knowledge_search tool ranks for your agents (text or Markdown, English or Chinese).",
    "zh-CN": "助手通过 knowledge_search 工具检索的文档(纯文本或 Markdown,中文或英文)。",
  },
  docTitle: { en: "Title", "zh-CN": "标题" },
  format: { en: "Format", "zh-CN": "格式" },
  language: { en: "Document language", "zh-CN": "文档语言" },
  size: { en: "Characters", "zh-CN": "字数" },
  updated: { en: "Updated", "zh-CN": "更新时间" },
  actions: { en: "Actions", "zh-CN": "操作" },
  edit: { en: "Edit", "zh-CN": "编辑" },
  remove: { en: "Remove", "zh-CN": "删除" },
  /** The button's name for a screen reader: the action and the document's title. */
  named: { en: "{a}: {d}", "zh-CN": "{a}:{d}" },
  none: { en: "No documents yet.", "zh-CN": "还没有文档。" },
  add: { en: "Add a document", "zh-CN": "添加文档" },
  editing: { en: "Edit the document", "zh-CN": "编辑文档" },
  text: { en: "Text", "zh-CN": "正文" },
  save: { en: "Save document", "zh-CN": "保存文档" },
  cancel: { en: "Cancel", "zh-CN": "取消" },
  saved: { en: "Saved. Agents find it within {s} s.", "zh-CN": "已保存。助手将在 {s} 秒内检索到它。" },
  removed: { en: "Removed.", "zh-CN": "已删除。" },
  any: { en: "Not set", "zh-CN": "未设置" },
  tryTitle: { en: "What does a query retrieve?", "zh-CN": "查询会检索到什么?" },
  query: { en: "Query", "zh-CN": "查询" },
  search: { en: "Search", "zh-CN": "检索" },
  noHits: { en: "Nothing matches.", "zh-CN": "没有匹配的文档。" },
  score: { en: "score {s}", "zh-CN": "得分 {s}" },
};
const LANGS: Record<string, LocalizedText> = {
  en: { en: "English", "zh-CN": "英文" },
  "zh-CN": { en: "Chinese", "zh-CN": "中文" },
};
const EMPTY = { title: "", text: "", format: "markdown", locale: "" };

/** Knowledge: the tenant's documents (list, add, edit, remove) and a query tried as the tool runs it. */
export default function Knowledge(_: PageProps) {
  const docs = useSignal<KnowledgeSummary[] | null>(null);
  const editing = useSignal<string | null>(null);
  const form = useSignal({ ...EMPTY });
  const errors = useSignal<FormErrors>({ fields: {}, summary: "" });
  const status = useSignal("");
  const query = useSignal("");
  const hits = useSignal<KnowledgeHit[] | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);

  const reload = () =>
    api.get(ROUTES.adminKnowledge).then(
      (a) => (docs.value = a.documents),
      (e) => (errors.value = formErrors(e)),
    );
  useEffect(() => void reload(), []);

  async function startEdit(id: string) {
    const { document: d } = await api.get(ROUTES.adminKnowledgeDoc, { params: { doc: id } });
    editing.value = id;
    form.value = { title: d.title, text: d.text, format: d.format ?? "markdown", locale: d.locale ?? "" };
    titleRef.current?.focus();
  }

  async function save(e: Event) {
    e.preventDefault();
    const { locale, ...rest } = form.value;
    const body = { ...rest, ...(locale ? { locale } : {}) };
    const id = editing.value;
    try {
      if (id) await api.put(ROUTES.adminKnowledgeDoc, { params: { doc: id }, json: body });
      else await api.post(ROUTES.adminKnowledge, { json: body });
      const list = await api.get(ROUTES.adminKnowledge);
      docs.value = list.documents;
      editing.value = null;
      form.value = { ...EMPTY };
      errors.value = { fields: {}, summary: "" };
      status.value = t(S.saved).replace("{s}", String(list.takesEffectWithinMs / 1000));
    } catch (err) {
      errors.value = formErrors(err);
      focusFirstInvalid(formRef.current);
    }
  }

  async function remove(id: string) {
    try {
      await api.delete(ROUTES.adminKnowledgeDoc, { params: { doc: id } });
      status.value = t(S.removed);
      await reload();
    } catch (err) {
      errors.value = formErrors(err);
    }
  }

  async function trySearch(e: Event) {
    e.preventDefault();
    try {
      hits.value = (await api.post(ROUTES.adminKnowledgeSearch, { json: { query: query.value } })).hits;
      errors.value = { fields: {}, summary: "" };
    } catch (err) {
      errors.value = formErrors(err);
    }
  }

  const err = (p: string) => errorUnder(errors.value, p);
  const f = form.value;
  const set = (k: keyof typeof EMPTY) => (v: string) => (form.value = { ...form.value, [k]: v });
  return (
    <section aria-labelledby="knowledge-title">
      <h1 id="knowledge-title">{t(S.title)}</h1>
      <p class="hint">{t(S.intro)}</p>
      {docs.value?.length === 0 && <p>{t(S.none)}</p>}
      {!!docs.value?.length && (
        <table>
          <TableHead cols={[S.docTitle, S.format, S.language, S.size, S.updated, S.actions]} />
          <tbody>
            {docs.value.map((d) => (
              <tr key={d.id}>
                <td>{d.title}</td>
                <td>{d.format ?? "text"}</td>
                <td>{d.locale ? t(LANGS[d.locale]) : t(S.any)}</td>
                <td>{d.chars}</td>
                <td>{d.updatedAt ? formatTime(d.updatedAt) : ""}</td>
                <td class="actions">
                  <button
                    type="button"
                    class="secondary"
                    onClick={() => startEdit(d.id)}
                    aria-label={t(S.named).replace("{a}", t(S.edit)).replace("{d}", d.title)}
                  >
                    {t(S.edit)}
                  </button>{" "}
                  <button
                    type="button"
                    class="danger"
                    onClick={() => remove(d.id)}
                    aria-label={t(S.named).replace("{a}", t(S.remove)).replace("{d}", d.title)}
                  >
                    {t(S.remove)}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form ref={formRef} onSubmit={save} noValidate class="doc-form">
        <h2 ref={titleRef} tabIndex={-1}>
          {editing.value ? t(S.editing) : t(S.add)}
        </h2>
        <TextField id="doc-title" label={t(S.docTitle)} value={f.title} onValue={set("title")} error={err("title")} />
        <TextField
          id="doc-text"
          label={t(S.text)}
          value={f.text}
          onValue={set("text")}
          error={err("text")}
          multiline={8}
        />
        <Field id="doc-format" label={t(S.format)} error={err("format")}>
          <select
            {...fieldAttrs("doc-format", err("format"))}
            value={f.format}
            onChange={(e) => set("format")(e.currentTarget.value)}
          >
            {KNOWLEDGE_FORMATS.map((x) => (
              <option key={x} value={x}>
                {x === "markdown" ? "Markdown" : t({ en: "Plain text", "zh-CN": "纯文本" })}
              </option>
            ))}
          </select>
        </Field>
        <Field id="doc-locale" label={t(S.language)} error={err("locale")}>
          <select
            {...fieldAttrs("doc-locale", err("locale"))}
            value={f.locale}
            onChange={(e) => set("locale")(e.currentTarget.value)}
          >
            <option value="">{t(S.any)}</option>
            {Object.entries(LANGS).map(([k, v]) => (
              <option key={k} value={k}>
                {t(v)}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit">{t(S.save)}</button>{" "}
        {editing.value && (
          <button type="button" class="secondary" onClick={() => ((editing.value = null), (form.value = { ...EMPTY }))}>
            {t(S.cancel)}
          </button>
        )}
        <p role="status">{status.value}</p>
      </form>
      <form onSubmit={trySearch} class="try-query">
        <h2>{t(S.tryTitle)}</h2>
        <TextField
          id="try-query"
          label={t(S.query)}
          value={query.value}
          onValue={(v) => (query.value = v)}
          error={err("query")}
        />
        <button type="submit">{t(S.search)}</button>
      </form>
      {hits.value && (
        <ol class="hits" aria-label={t(S.tryTitle)}>
          {hits.value.length === 0 && <li>{t(S.noHits)}</li>}
          {hits.value.map((h) => (
            <li key={h.id}>
              <strong>{h.title}</strong> <span class="muted">{t(S.score).replace("{s}", String(h.score))}</span>
              <p class="excerpt">{h.text.slice(0, 300)}</p>
            </li>
          ))}
        </ol>
      )}
      <p role="alert">{errors.value.summary}</p>
    </section>
  );
}
