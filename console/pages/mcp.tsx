import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { McpServerConfig, McpServerView } from "../../shared/config/mcp-config.ts";
import type { McpProbe } from "../../shared/admin/mcp-probe.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api } from "../api.ts";
import { t } from "../i18n.ts";
import type { PageProps } from "../pages.ts";
import { TextField } from "../form/field.tsx";
import { errorUnder, focusFirstInvalid, formErrors, type FormErrors } from "../form/issues.ts";
import { emptyMcpForm, mcpForm, mcpServer, stored, withServer, type McpForm } from "./mcp-form.ts";
import { ProbeView } from "./mcp-probe-view.tsx";

const S = {
  title: { en: "MCP servers", "zh-CN": "MCP 服务器" },
  intro: {
    en:
      "Your own systems' tools (Streamable HTTP). The worker connects; " +
      "each agent allows the tools it may use (Agents page).",
    "zh-CN": "您自己系统的工具(Streamable HTTP)。由 Worker 连接;每个助手勾选它可以使用的工具(“助手”页面)。",
  },
  none: { en: "No MCP servers yet.", "zh-CN": "还没有 MCP 服务器。" },
  secret: { en: "Auth secret", "zh-CN": "认证机密" },
  noAuth: { en: "no auth header", "zh-CN": "无认证头" },
  set: { en: "set on the worker", "zh-CN": "Worker 已设置" },
  unset: { en: "not set on the worker", "zh-CN": "Worker 未设置" },
  test: { en: "Test connection", "zh-CN": "测试连接" },
  testing: { en: "Testing…", "zh-CN": "测试中…" },
  edit: { en: "Edit", "zh-CN": "编辑" },
  remove: { en: "Remove", "zh-CN": "删除" },
  add: { en: "Add a server", "zh-CN": "添加服务器" },
  editing: { en: "Edit server {s}", "zh-CN": "编辑服务器 {s}" },
  id: { en: "Id (lowercase letters, digits, -)", "zh-CN": "ID(小写字母、数字、-)" },
  url: { en: "URL (https)", "zh-CN": "URL(https)" },
  header: { en: "Auth header", "zh-CN": "认证头" },
  secretName: { en: "Worker secret holding the header's value", "zh-CN": "保存认证头值的 Worker 机密名称" },
  secretHint: {
    en: "A name starting MCP_ (npx wrangler secret put MCP_ORDERS_TOKEN, then paste Bearer …). Leave MCP_ for none.",
    "zh-CN": "以 MCP_ 开头的名称(npx wrangler secret put MCP_ORDERS_TOKEN,然后粘贴 Bearer …)。留空 MCP_ 表示无认证。",
  },
  timeout: { en: "Call timeout (ms, empty: 15 000)", "zh-CN": "调用超时(毫秒,留空为 15000)" },
  save: { en: "Save server", "zh-CN": "保存服务器" },
  cancel: { en: "Cancel", "zh-CN": "取消" },
  saved: { en: "Saved.", "zh-CN": "已保存。" },
  removed: { en: "Removed.", "zh-CN": "已删除。" },
};

const NO_ERRORS: FormErrors = { fields: {}, summary: "" };

/** MCP servers: the site's list (the auth secret's name only, never its value), add, edit, remove, test. */
export default function McpServers(_: PageProps) {
  const servers = useSignal<McpServerView[] | null>(null);
  const form = useSignal<McpForm>(emptyMcpForm());
  const editing = useSignal<string | null>(null);
  const probes = useSignal<Record<string, McpProbe | "busy">>({});
  const errors = useSignal<FormErrors>(NO_ERRORS);
  /** Where the worker's issues for the form are: `servers.<i>` on save, `server` on a test. */
  const prefix = useSignal("server");
  const status = useSignal("");
  const formRef = useRef<HTMLFormElement>(null);

  const load = () => api.get(ROUTES.adminMcpServers).then((v) => (servers.value = v.servers));
  useEffect(() => void load().catch((err) => (errors.value = formErrors(err))), []);

  async function put(list: McpServerConfig[], done: string, at: number) {
    prefix.value = `servers.${at}`;
    try {
      servers.value = (await api.put(ROUTES.adminMcpServers, { json: { servers: list } })).servers;
      errors.value = NO_ERRORS;
      status.value = done;
      return true;
    } catch (err) {
      errors.value = formErrors(err);
      focusFirstInvalid(formRef.current);
      return false;
    }
  }

  async function test(key: string, server: McpServerConfig) {
    probes.value = { ...probes.value, [key]: "busy" };
    prefix.value = "server";
    try {
      const probe = await api.post(ROUTES.adminMcpServerTest, { json: { server } });
      probes.value = { ...probes.value, [key]: probe };
      errors.value = NO_ERRORS;
    } catch (err) {
      const { [key]: _drop, ...rest } = probes.value;
      probes.value = rest;
      errors.value = formErrors(err);
      focusFirstInvalid(formRef.current);
    }
  }

  async function save(e: Event) {
    e.preventDefault();
    const { servers: list, index } = withServer(servers.value ?? [], mcpServer(form.value), editing.value);
    if (await put(list, t(S.saved), index)) {
      editing.value = null;
      form.value = emptyMcpForm();
    }
  }

  const err = (field: string) => errorUnder(errors.value, `${prefix.value}.${field}`);
  const text = (key: keyof McpForm, label: { en: string; "zh-CN": string }, field: string, hint?: string) => (
    <TextField
      id={`mcp-${key}`}
      label={t(label)}
      value={form.value[key]}
      onValue={(x) => (form.value = { ...form.value, [key]: x })}
      error={err(field)}
      hint={hint}
    />
  );
  const probeOf = (key: string) => {
    const p = probes.value[key];
    return p === "busy" ? <p aria-busy="true">{t(S.testing)}</p> : p ? <ProbeView probe={p} /> : null;
  };
  return (
    <section aria-labelledby="mcp-title">
      <h1 id="mcp-title">{t(S.title)}</h1>
      <p class="hint">{t(S.intro)}</p>
      {errors.value.summary && <p role="alert">{errors.value.summary}</p>}
      {servers.value?.length === 0 && <p>{t(S.none)}</p>}
      {servers.value?.map((s) => (
        <article key={s.id} class="endpoint" aria-labelledby={`mcp-${s.id}-title`}>
          <h2 id={`mcp-${s.id}-title`}>{s.id}</h2>
          <p>
            <code>{s.url}</code>
          </p>
          <p>
            {t(S.secret)}:{" "}
            {s.auth ? (
              <>
                <code>{s.auth.secretName}</code> ({s.auth.header}, {t(s.secretSet ? S.set : S.unset)})
              </>
            ) : (
              t(S.noAuth)
            )}
          </p>
          <button type="button" aria-label={`${t(S.test)}: ${s.id}`} onClick={() => void test(s.id, stored(s))}>
            {t(S.test)}
          </button>{" "}
          <button
            type="button"
            class="secondary"
            aria-label={`${t(S.edit)}: ${s.id}`}
            onClick={() => ((editing.value = s.id), (form.value = mcpForm(s)), (errors.value = NO_ERRORS))}
          >
            {t(S.edit)}
          </button>{" "}
          <button
            type="button"
            class="danger"
            aria-label={`${t(S.remove)}: ${s.id}`}
            onClick={() => {
              const list = (servers.value ?? []).filter((o) => o.id !== s.id).map(stored);
              void put(list, t(S.removed), 0);
            }}
          >
            {t(S.remove)}
          </button>
          <div aria-live="polite">{probeOf(s.id)}</div>
        </article>
      ))}
      <form ref={formRef} class="settings" onSubmit={save} noValidate aria-labelledby="mcp-form-title">
        <h2 id="mcp-form-title">{editing.value ? t(S.editing).replace("{s}", editing.value) : t(S.add)}</h2>
        {text("id", S.id, "id")}
        {text("url", S.url, "url")}
        {text("header", S.header, "auth.header")}
        {text("secretName", S.secretName, "auth.secretName", t(S.secretHint))}
        {text("timeoutMs", S.timeout, "timeoutMs")}
        <button type="submit">{t(S.save)}</button>{" "}
        <button type="button" class="secondary" onClick={() => void test("form", mcpServer(form.value))}>
          {t(S.test)}
        </button>{" "}
        {editing.value && (
          <button
            type="button"
            class="secondary"
            onClick={() => ((editing.value = null), (form.value = emptyMcpForm()), (errors.value = NO_ERRORS))}
          >
            {t(S.cancel)}
          </button>
        )}
        <div aria-live="polite">{probeOf("form")}</div>
      </form>
      <p role="status">{status.value}</p>
    </section>
  );
}
