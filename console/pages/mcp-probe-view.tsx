import type { McpProbe, McpProbeFailure } from "../../shared/admin/mcp-probe.ts";
import { t } from "../i18n.ts";

const S = {
  tools: { en: "{n} tools, listed from the worker in {ms} ms:", "zh-CN": "{n} 个工具,Worker 用时 {ms} 毫秒列出:" },
  noTools: { en: "The server lists no tools.", "zh-CN": "该服务器没有列出工具。" },
  notOffered: { en: "not offered: {m}", "zh-CN": "不会提供给模型:{m}" },
  failures: {
    refused: { en: "Refused: the worker will not connect to this address.", "zh-CN": "已拒绝:Worker 不会连接此地址。" },
    secret_missing: {
      en: "The worker does not have the auth secret named here.",
      "zh-CN": "Worker 未设置此处命名的认证机密。",
    },
    unreachable: { en: "Unreachable: the server did not answer.", "zh-CN": "无法访问:服务器没有应答。" },
    unauthorized: { en: "The server refused the auth header.", "zh-CN": "服务器拒绝了认证头。" },
    not_mcp: { en: "The server answered, but not as an MCP server.", "zh-CN": "服务器有应答,但不是 MCP 服务器。" },
  } satisfies Record<McpProbeFailure, { en: string; "zh-CN": string }>,
};

/** What "test connection" found: the server's tools (any a schema keeps from the model, with why), or the failure. */
export function ProbeView({ probe }: { probe: McpProbe }) {
  if (probe.failure)
    return (
      <div class="probe">
        <p>
          <strong>{t(S.failures[probe.failure.kind])}</strong>
        </p>
        <p class="muted">{probe.failure.message}</p>
      </div>
    );
  if (!probe.tools.length) return <p class="probe">{t(S.noTools)}</p>;
  return (
    <div class="probe">
      <p>{t(S.tools).replace("{n}", String(probe.tools.length)).replace("{ms}", String(probe.ms))}</p>
      <ul>
        {probe.tools.map((tool) => (
          <li key={tool.tool}>
            <code>{tool.tool}</code> {tool.description}
            {tool.problem && <span class="field-error"> ({t(S.notOffered).replace("{m}", tool.problem)})</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
