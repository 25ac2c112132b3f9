import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { PromptDiff, PromptVersions } from "../../shared/wire/admin-answers.ts";
import type { LabelMove } from "../../shared/admin/prompt-records.ts";
import { api } from "../api.ts";
import { formatTime, t } from "../i18n.ts";
import type { PageProps } from "../pages.ts";
import { Field, TextField } from "../form/field.tsx";
import { errorUnder, formErrors, type FormErrors } from "../form/issues.ts";
import { SideBySide } from "../form/side-by-side.tsx";
import { useAgentChoice } from "../form/agent-choice.ts";
import { TableHead } from "../form/table-head.tsx";

const PARTS = ["system", "strategies", "guidance"] as const;
const S = {
  title: { en: "Prompts", "zh-CN": "提示词" },
  intro: {
    en: "Every save is a new version; the chat uses the version labelled production (within 30 s of a move).",
    "zh-CN": "每次保存都是一个新版本;对话使用标记为 production 的版本(移动标签后 30 秒内生效)。",
  },
  agent: { en: "Agent", "zh-CN": "助手" },
  part: { en: "Prompt", "zh-CN": "提示词" },
  versions: { en: "Versions", "zh-CN": "版本" },
  version: { en: "Version", "zh-CN": "版本" },
  author: { en: "By", "zh-CN": "作者" },
  note: { en: "Note", "zh-CN": "备注" },
  when: { en: "When", "zh-CN": "时间" },
  labels: { en: "Labels", "zh-CN": "标签" },
  text: { en: "Text of version {v}", "zh-CN": "版本 {v} 的内容" },
  newNote: { en: "Note for the new version", "zh-CN": "新版本的备注" },
  save: { en: "Save as a new version", "zh-CN": "另存为新版本" },
  saved: { en: "Saved as version {v}.", "zh-CN": "已保存为版本 {v}。" },
  compare: { en: "Compare", "zh-CN": "对比" },
  from: { en: "From version", "zh-CN": "起始版本" },
  to: { en: "To version", "zh-CN": "目标版本" },
  move: { en: "Put production on a version (rollback or promote)", "zh-CN": "把 production 移到某个版本(回滚或发布)" },
  target: { en: "Version for production", "zh-CN": "production 使用的版本" },
  why: { en: "Why", "zh-CN": "原因" },
  moveButton: { en: "Move production", "zh-CN": "移动 production" },
  moved: { en: "Production is now version {v}.", "zh-CN": "production 现在是版本 {v}。" },
  history: { en: "Label history", "zh-CN": "标签历史" },
  show: { en: "Show", "zh-CN": "查看" },
};

/** Prompts: an agent's system, strategies and guidance prompts in the registry: versions, diff, save, labels. */
export default function Prompts(_: PageProps) {
  const { agents, agent } = useAgentChoice();
  const part = useSignal<(typeof PARTS)[number]>("system");
  const data = useSignal<PromptVersions | null>(null);
  const shown = useSignal<number | null>(null);
  const text = useSignal("");
  const note = useSignal("");
  const diff = useSignal<PromptDiff | null>(null);
  const from = useSignal("");
  const to = useSignal("");
  const target = useSignal("");
  const why = useSignal("");
  const history = useSignal<LabelMove[]>([]);
  const errors = useSignal<FormErrors>({ fields: {}, summary: "" });
  const status = useSignal("");

  const base = () => ({ agent: agent.value, name: part.value });

  async function load(keepStatus = false) {
    if (!agent.value) return;
    if (!keepStatus) status.value = "";
    try {
      // Compiling seeds version 1 of each part from the agent's config the first time.
      await api.get(ROUTES.adminSystemPrompt, { params: { agent: agent.value } });
      const v = await api.get(ROUTES.adminPrompt, { params: base() });
      data.value = v;
      const latest = v.versions[0]?.version ?? 1;
      from.value = String(v.labels.production ?? latest);
      to.value = String(latest);
      target.value = String(v.labels.production ?? latest);
      diff.value = null;
      history.value = (await api.get(ROUTES.adminPromptHistory, { params: base() })).moves;
      await show(latest);
      errors.value = { fields: {}, summary: "" };
    } catch (err) {
      errors.value = formErrors(err);
    }
  }
  useEffect(() => void load(), [agent.value, part.value]);

  async function show(version: number) {
    const v = await api.get(ROUTES.adminPromptVersion, { params: { ...base(), ref: String(version) } });
    shown.value = version;
    text.value = v.text;
  }

  async function save(e: Event) {
    e.preventDefault();
    try {
      const saved = await api.post(ROUTES.adminPromptVersions, {
        params: base(),
        json: { text: text.value, note: note.value || undefined, parent: shown.value ?? undefined },
      });
      note.value = "";
      await load(true);
      status.value = t(S.saved).replace("{v}", String(saved.version));
    } catch (err) {
      errors.value = formErrors(err);
    }
  }

  async function compare(e: Event) {
    e.preventDefault();
    try {
      diff.value = await api.get(ROUTES.adminPromptDiff, { params: base(), query: { from: from.value, to: to.value } });
    } catch (err) {
      errors.value = formErrors(err);
    }
  }

  async function moveProduction(e: Event) {
    e.preventDefault();
    try {
      await api.put(ROUTES.adminPromptLabel, {
        params: { ...base(), label: "production" },
        json: { version: Number(target.value), why: why.value },
      });
      why.value = "";
      await load(true);
      status.value = t(S.moved).replace("{v}", target.value);
    } catch (err) {
      errors.value = formErrors(err);
    }
  }

  const v = data.value;
  const labelsOf = (n: number) =>
    Object.entries(v?.labels ?? {})
      .filter(([, at]) => at === n)
      .map(([l]) => l)
      .join(", ");
  const options = v?.versions.map((x) => (
    <option key={x.version} value={String(x.version)}>
      v{x.version} {labelsOf(x.version) && `(${labelsOf(x.version)})`}
    </option>
  ));
  return (
    <section aria-labelledby="prompts-title">
      <h1 id="prompts-title">{t(S.title)}</h1>
      <p class="hint">{t(S.intro)}</p>
      <div class="row">
        <Field id="prompt-agent" label={t(S.agent)}>
          <select id="prompt-agent" value={agent.value} onChange={(e) => (agent.value = e.currentTarget.value)}>
            {agents.value.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </Field>
        <Field id="prompt-part" label={t(S.part)}>
          <select
            id="prompt-part"
            value={part.value}
            onChange={(e) => (part.value = e.currentTarget.value as (typeof PARTS)[number])}
          >
            {PARTS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </Field>
      </div>
      <p role="status">{status.value}</p>
      {v && (
        <>
          <h2>{t(S.versions)}</h2>
          <table>
            <TableHead cols={[S.version, S.labels, S.author, S.note, S.when, S.show]} />
            <tbody>
              {v.versions.map((x) => (
                <tr key={x.version} aria-current={x.version === shown.value ? "true" : undefined}>
                  <td>v{x.version}</td>
                  <td>{labelsOf(x.version)}</td>
                  <td>{x.author}</td>
                  <td>{x.note}</td>
                  <td>{formatTime(x.at)}</td>
                  <td>
                    <button type="button" class="secondary" onClick={() => show(x.version)}>
                      {t(S.show)} v{x.version}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <form onSubmit={save}>
            <TextField
              id="prompt-text"
              label={t(S.text).replace("{v}", String(shown.value ?? ""))}
              value={text.value}
              onValue={(x) => (text.value = x)}
              multiline={12}
              error={errorUnder(errors.value, "text")}
            />
            <TextField id="prompt-note" label={t(S.newNote)} value={note.value} onValue={(x) => (note.value = x)} />
            <button type="submit">{t(S.save)}</button>
          </form>
          <form onSubmit={compare} class="row">
            <Field id="diff-from" label={t(S.from)}>
              <select id="diff-from" value={from.value} onChange={(e) => (from.value = e.currentTarget.value)}>
                {options}
              </select>
            </Field>
            <Field id="diff-to" label={t(S.to)}>
              <select id="diff-to" value={to.value} onChange={(e) => (to.value = e.currentTarget.value)}>
                {options}
              </select>
            </Field>
            <button type="submit">{t(S.compare)}</button>
          </form>
          {diff.value && <SideBySide diff={diff.value.diff} from={diff.value.from} to={diff.value.to} />}
          <form onSubmit={moveProduction}>
            <h2>{t(S.move)}</h2>
            <Field id="move-target" label={t(S.target)}>
              <select id="move-target" value={target.value} onChange={(e) => (target.value = e.currentTarget.value)}>
                {options}
              </select>
            </Field>
            <TextField
              id="move-why"
              label={t(S.why)}
              value={why.value}
              onValue={(x) => (why.value = x)}
              error={errorUnder(errors.value, "why")}
            />
            <button type="submit">{t(S.moveButton)}</button>
          </form>
          <h2>{t(S.history)}</h2>
          <ul>
            {history.value.map((m) => (
              <li key={m.seq}>
                {formatTime(m.at)}: {m.label} v{m.from ?? "–"} → v{m.to ?? "–"} ({m.by}) {m.why}
              </li>
            ))}
          </ul>
        </>
      )}
      <p role="alert">{errors.value.summary}</p>
    </section>
  );
}
