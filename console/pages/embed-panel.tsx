import { useSignal } from "@preact/signals";
import { t } from "../i18n.ts";
import { CopyButton } from "../form/copy-button.tsx";
import { Preview } from "../form/preview.tsx";

const S = {
  title: { en: "Put the chat on your site", "zh-CN": "把聊天放到你的网站上" },
  agent: { en: "Agent", "zh-CN": "助手" },
  script: { en: "Script tag (any website)", "zh-CN": "脚本标签(任何网站)" },
  iframe: { en: "iframe (partner portals)", "zh-CN": "iframe(合作方门户)" },
  npm: { en: "npm (single-page apps)", "zh-CN": "npm(单页应用)" },
  preview: { en: "Live preview", "zh-CN": "实时预览" },
  previewNote: {
    en: "The published agent as a visitor sees it; conversations held here appear under Conversations.",
    "zh-CN": "访客看到的已发布助手;在这里进行的对话会出现在“对话”中。",
  },
};

/** The three ways in, for the chosen agent, each with a copy button; and the agent itself, live. */
export function EmbedPanel({ siteKey, agents }: { siteKey: string; agents: string[] }) {
  const agent = useSignal(agents[0] ?? "");
  const origin = location.origin;
  const a = agent.value;
  const snippets = [
    {
      id: "script",
      label: t(S.script),
      code: `<script src="${origin}/parley.js"\n        data-site-key="${siteKey}" data-agent="${a}" async></script>`,
    },
    {
      id: "iframe",
      label: t(S.iframe),
      code:
        `<iframe src="${origin}/embed/${a}?site=${siteKey}"\n` +
        `        title="Chat" allow="clipboard-write" width="400" height="600"></iframe>`,
    },
    {
      id: "npm",
      label: t(S.npm),
      code:
        `import { mount } from "parley";\n` +
        `mount(document.getElementById("chat"), {\n` +
        `  siteKey: "${siteKey}", agentId: "${a}", api: "${origin}",\n});`,
    },
  ];
  return (
    <section aria-labelledby="embed-title" class="embed">
      <h2 id="embed-title">{t(S.title)}</h2>
      <label for="embed-agent">{t(S.agent)}</label>{" "}
      <select id="embed-agent" value={a} onChange={(e) => (agent.value = e.currentTarget.value)}>
        {agents.map((id) => (
          <option key={id} value={id}>
            {id}
          </option>
        ))}
      </select>
      {snippets.map((s) => (
        <div class="snippet" key={s.id}>
          <h3 id={`snippet-${s.id}`}>{s.label}</h3>
          <pre aria-labelledby={`snippet-${s.id}`} tabIndex={0}>
            <code>{s.code}</code>
          </pre>
          <CopyButton text={s.code} label={s.label} />
        </div>
      ))}
      {a && (
        <>
          <h3>{t(S.preview)}</h3>
          <p class="hint">{t(S.previewNote)}</p>
          <Preview key={a} agent={a} />
        </>
      )}
    </section>
  );
}
