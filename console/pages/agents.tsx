import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { AgentListing } from "../../shared/wire/admin-answers.ts";
import type { AgentConfig } from "../../shared/config/agent-config.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api } from "../api.ts";
import { t } from "../i18n.ts";
import type { PageProps } from "../pages.ts";
import { href, navigate, onLinkClick } from "../router.ts";
import { Field, TextField } from "../form/field.tsx";
import { errorUnder, focusFirstInvalid, formErrors, type FormErrors } from "../form/issues.ts";
import { AgentEditor } from "./agent-editor.tsx";
import { TableHead } from "../form/table-head.tsx";

const S = {
  title: { en: "Agents", "zh-CN": "助手" },
  name: { en: "Name", "zh-CN": "名称" },
  id: { en: "Id", "zh-CN": "编号" },
  model: { en: "Model", "zh-CN": "模型" },
  strategy: { en: "Strategy", "zh-CN": "调用方式" },
  tools: { en: "Tools", "zh-CN": "工具" },
  stages: { en: "Stages", "zh-CN": "阶段" },
  stored: { en: "Stored", "zh-CN": "存储" },
  edit: { en: "Edit {a}", "zh-CN": "编辑 {a}" },
  create: { en: "Create an agent", "zh-CN": "新建助手" },
  template: { en: "Start from", "zh-CN": "模板" },
  newId: { en: "Id of the new agent", "zh-CN": "新助手的编号" },
  newIdHint: {
    en: "Lower-case letters, digits and dashes, e.g. front-desk.",
    "zh-CN": "小写字母、数字和连字符,例如 front-desk。",
  },
  createButton: { en: "Create", "zh-CN": "创建" },
  source: {
    site: { en: "this site", "zh-CN": "本站" },
    shared: { en: "shared", "zh-CN": "共享" },
    preset: { en: "demo preset", "zh-CN": "演示预设" },
  },
  broken: { en: "Cannot be read: {m}", "zh-CN": "无法读取:{m}" },
};

/** Agents: the site's agents, and a new one from a template; /console/agents/<id> edits one. */
export default function Agents({ rest }: PageProps) {
  if (rest[0]) return <AgentEditor key={rest[0]} id={rest[0]} />;
  return <AgentList />;
}

function AgentList() {
  const agents = useSignal<AgentListing[] | null>(null);
  const templates = useSignal<AgentConfig[]>([]);
  const template = useSignal("");
  const newId = useSignal("");
  const errors = useSignal<FormErrors>({ fields: {}, summary: "" });
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    api.get(ROUTES.adminAgents).then(
      (a) => (agents.value = a.agents),
      (e) => (errors.value = formErrors(e)),
    );
    api.get(ROUTES.adminTemplates).then(
      (a) => {
        templates.value = a.templates;
        template.value = a.templates[0]?.id ?? "";
      },
      (e) => (errors.value = formErrors(e)),
    );
  }, []);

  async function create(e: Event) {
    e.preventDefault();
    const base = templates.value.find((x) => x.id === template.value);
    if (!base) return;
    try {
      await api.post(ROUTES.adminAgents, { json: { ...base, id: newId.value.trim() } });
      navigate(`agents/${newId.value.trim()}`);
    } catch (err) {
      errors.value = formErrors(err);
      focusFirstInvalid(formRef.current);
    }
  }

  const idError = errorUnder(errors.value, "id");
  return (
    <section aria-labelledby="agents-title">
      <h1 id="agents-title">{t(S.title)}</h1>
      {agents.value && (
        <table>
          <TableHead cols={[S.name, S.id, S.model, S.strategy, S.tools, S.stages, S.stored]} />
          <tbody>
            {agents.value.map((a) => (
              <tr key={a.id}>
                <td>
                  <a
                    href={href(`agents/${a.id}`)}
                    aria-label={t(S.edit).replace("{a}", "error" in a ? a.id : t(a.name))}
                    onClick={(e) => onLinkClick(e, `agents/${a.id}`)}
                  >
                    {"error" in a ? a.id : t(a.name)}
                  </a>
                </td>
                <td>
                  <code>{a.id}</code>
                </td>
                {"error" in a ? (
                  <td colSpan={5} class="error">
                    {t(S.broken).replace("{m}", a.error)}
                  </td>
                ) : (
                  <>
                    <td>{a.model}</td>
                    <td>{a.strategy}</td>
                    <td>{a.tools.join(", ")}</td>
                    <td>{a.stages}</td>
                    <td>{t(S.source[a.source])}</td>
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form ref={formRef} onSubmit={create} class="inline-form" noValidate>
        <h2>{t(S.create)}</h2>
        <Field id="new-template" label={t(S.template)}>
          <select id="new-template" value={template.value} onChange={(e) => (template.value = e.currentTarget.value)}>
            {templates.value.map((x) => (
              <option key={x.id} value={x.id}>
                {t(x.name)} ({x.id})
              </option>
            ))}
          </select>
        </Field>
        <TextField
          id="new-id"
          label={t(S.newId)}
          hint={t(S.newIdHint)}
          value={newId.value}
          onValue={(v) => (newId.value = v)}
          error={idError}
        />
        <button type="submit">{t(S.createButton)}</button>
      </form>
      <p role="alert">{idError ? "" : errors.value.summary}</p>
    </section>
  );
}
