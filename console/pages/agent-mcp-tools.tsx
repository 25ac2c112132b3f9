import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { McpProbe } from "../../shared/admin/mcp-probe.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api } from "../api.ts";
import { t } from "../i18n.ts";
import { hasTool, toggleTool } from "./mcp-form.ts";

const S = {
  legend: { en: "MCP tools this agent may use", "zh-CN": "此助手可以使用的 MCP 工具" },
  loading: { en: "Listing the MCP servers' tools…", "zh-CN": "正在列出 MCP 服务器的工具…" },
  failed: { en: "{s}: tools could not be listed ({m})", "zh-CN": "{s}:无法列出工具({m})" },
  notOffered: { en: "not offered: {m}", "zh-CN": "不会提供给模型:{m}" },
};

/**
 * The allowlist of an agent's MCP tools as checkboxes of what the site's servers list; a box adds or
 * removes `mcp__<server>__<tool>` in the agent's tools text, which stays the one list that is saved.
 */
export function McpToolPicker(props: { tools: string; onTools: (text: string) => void }) {
  const servers = useSignal<McpProbe[] | null>(null);
  const failure = useSignal("");
  useEffect(() => {
    api.get(ROUTES.adminMcpTools).then(
      (v) => (servers.value = v.servers),
      (err) => (failure.value = err instanceof Error ? err.message : String(err)),
    );
  }, []);
  if (failure.value || servers.value?.length === 0) return null;
  return (
    <fieldset>
      <legend>{t(S.legend)}</legend>
      {!servers.value && <p aria-busy="true">{t(S.loading)}</p>}
      {servers.value?.map((s) =>
        s.failure ? (
          <p key={s.id} class="muted">
            {t(S.failed).replace("{s}", s.id).replace("{m}", s.failure.message)}
          </p>
        ) : (
          s.tools.map((tool) => (
            <label class="check" key={`${s.id}/${tool.tool}`}>
              <input
                type="checkbox"
                disabled={!tool.name}
                checked={Boolean(tool.name && hasTool(props.tools, tool.name))}
                onChange={(e) =>
                  tool.name && props.onTools(toggleTool(props.tools, tool.name, e.currentTarget.checked))
                }
              />{" "}
              <code>
                {s.id}/{tool.tool}
              </code>{" "}
              {tool.description}
              {tool.problem && <span class="muted"> ({t(S.notOffered).replace("{m}", tool.problem)})</span>}
            </label>
          ))
        ),
      )}
    </fieldset>
  );
}
