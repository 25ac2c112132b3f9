import type { RunRequest } from "../../shared/admin/desk-records.ts";
import { formatTime, t } from "../i18n.ts";

const S = {
  title: { en: "What was asked, word for word", "zh-CN": "收到的请求(原文)" },
  hint: {
    en:
      "Visitors' words are untrusted: anyone with a chat can write them. Check that the candidate only does " +
      "what they mean for your agent, and carries no phone number, link or instruction of theirs.",
    "zh-CN":
      "访客的文字不可信:任何能打开对话的人都能写。请确认候选版本只体现其对助手的含义,不含访客的电话、链接或指令。",
  },
  none: { en: "This run kept no requests.", "zh-CN": "此次运行未保存请求。" },
  owner: { en: "Your note", "zh-CN": "你的备注" },
  feedback: { en: "A visitor's thumbs-down", "zh-CN": "访客的差评" },
  tool: { en: "The agent's suggestion, in a visitor's chat", "zh-CN": "助手在访客对话中的建议" },
  session: { en: "session {s}", "zh-CN": "会话 {s}" },
  asked: { en: "The visitor had asked:", "zh-CN": "访客当时问:" },
};

const SOURCES: Record<string, { en: string; "zh-CN": string }> = { owner: S.owner, feedback: S.feedback, tool: S.tool };

/**
 * The requests of a run beside its diff. Every text is a text node (Preact escapes it): a visitor
 * who writes markup sees it shown, never rendered.
 */
export function DeskRequests({ requests }: { requests: RunRequest[] }) {
  return (
    <section class="desk-requests" aria-labelledby="desk-requests-title">
      <h3 id="desk-requests-title">{t(S.title)}</h3>
      <p class="hint">{t(S.hint)}</p>
      {requests.length === 0 && <p>{t(S.none)}</p>}
      <ol>
        {requests.map((r) => {
          const session = r.context?.session;
          const asked = r.context?.["visitor asked"];
          return (
            <li key={r.id} data-source={r.source}>
              <span class="muted">
                {SOURCES[r.source] ? t(SOURCES[r.source]) : r.source} · {formatTime(r.at)}
                {session && ` · ${t(S.session).replace("{s}", session.slice(0, 8))}`}
              </span>
              <blockquote class="verbatim">{r.text}</blockquote>
              {asked && (
                <p class="muted">
                  {t(S.asked)} <q>{asked}</q>
                </p>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
