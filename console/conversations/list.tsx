import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { ConversationList as ListAnswer } from "../../shared/admin/conversation-query.ts";
import type { SessionSummary } from "../../shared/session/session-summary.ts";
import { onExportClick } from "../download.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api } from "../api.ts";
import { formatTime, t } from "../i18n.ts";
import { href, onLinkClick } from "../router.ts";
import { FilterForm, fromQuery, toQuery, type Filters } from "./filters.tsx";
import { notice, rememberQuery } from "./list-state.ts";
import { Erasures } from "./erasures.tsx";

const S = {
  title: { en: "Conversations", "zh-CN": "对话" },
  opened: { en: "Opened", "zh-CN": "开始时间" },
  agent: { en: "Agent", "zh-CN": "助手" },
  first: { en: "Visitor's first message", "zh-CN": "访客的第一条消息" },
  messages: { en: "Messages", "zh-CN": "消息" },
  tokens: { en: "Tokens", "zh-CN": "令牌" },
  feedback: { en: "Feedback", "zh-CN": "反馈" },
  flags: { en: "Notes", "zh-CN": "标记" },
  handledBy: { en: "Handled by", "zh-CN": "处理者" },
  byAgent: { en: "agent", "zh-CN": "助手" },
  none: { en: "No conversations match.", "zh-CN": "没有符合条件的对话。" },
  noText: { en: "(no message yet)", "zh-CN": "(尚无消息)" },
  older: { en: "Older conversations", "zh-CN": "更早的对话" },
  csv: { en: "Export CSV", "zh-CN": "导出 CSV" },
  json: { en: "Export JSON", "zh-CN": "导出 JSON" },
  tokensToday: { en: "Tokens today: {spent} of {budget}", "zh-CN": "今日用量:{spent} / {budget} 令牌" },
  failed: { en: "Could not load conversations: {m}", "zh-CN": "无法加载对话:{m}" },
  up: { en: "{n} up", "zh-CN": "赞 {n}" },
  down: { en: "{n} down", "zh-CN": "踩 {n}" },
  advice: { en: "{n} advice", "zh-CN": "建议 {n}" },
  escalated: { en: "escalated", "zh-CN": "紧急" },
  interrupted: { en: "interrupted", "zh-CN": "中断" },
  quick: { en: "quick", "zh-CN": "快速" },
  loop: { en: "loop", "zh-CN": "循环" },
  human: { en: "staff", "zh-CN": "人工" },
  shown: { en: "{n} shown", "zh-CN": "显示 {n} 条" },
};

const n = (s: { en: string; "zh-CN": string }, v: number) => t(s).replace("{n}", String(v));

function flags(r: SessionSummary): string {
  const out: string[] = [];
  if (r.advice) out.push(n(S.advice, r.advice));
  if (r.escalated) out.push(t(S.escalated));
  if (r.interrupted) out.push(t(S.interrupted));
  if (r.quickAnswers) out.push(t(S.quick));
  if (r.reactAnswers) out.push(t(S.loop));
  return out.join(" · ");
}

/** The site's conversations from its index: filters, search, export, newest first a page at a time. */
export function ConversationList() {
  const filters = useSignal<Filters>(fromQuery(new URLSearchParams(location.search)));
  const rows = useSignal<SessionSummary[]>([]);
  const next = useSignal<number | undefined>(undefined);
  const tokens = useSignal<ListAnswer["tokensToday"] | null>(null);
  const agents = useSignal<string[]>([]);
  const error = useSignal("");
  const loading = useSignal(true);
  const said = useSignal(notice.peek());

  async function load(before?: number) {
    loading.value = true;
    const query = toQuery(filters.value);
    try {
      const a = await api.get(ROUTES.adminSessions, {
        query: { ...Object.fromEntries(query), limit: 50, before },
      });
      rows.value = before ? [...rows.value, ...a.sessions] : a.sessions;
      next.value = a.next;
      tokens.value = a.tokensToday;
      agents.value = a.agents;
      error.value = "";
    } catch (err) {
      error.value = t(S.failed).replace("{m}", err instanceof Error ? err.message : String(err));
    } finally {
      loading.value = false;
    }
  }
  function apply() {
    const query = toQuery(filters.value).toString();
    rememberQuery(query);
    history.replaceState(null, "", href(`conversations${query ? `?${query}` : ""}`));
    void load();
  }
  useEffect(() => {
    notice.value = "";
    rememberQuery(toQuery(filters.value).toString());
    void load();
  }, []);

  const exportHref = (format: string) => {
    const q = toQuery(filters.value);
    q.set("format", format);
    return `${ROUTES.adminSessionsExport}?${q}`;
  };
  return (
    <section aria-labelledby="conversations-title">
      <h1 id="conversations-title">{t(S.title)}</h1>
      {said.value && <p role="status">{said.value}</p>}
      {tokens.value && (
        <p class="muted">
          {t(S.tokensToday)
            .replace("{spent}", tokens.value.spent.toLocaleString())
            .replace("{budget}", tokens.value.budget.toLocaleString())}
        </p>
      )}
      <FilterForm filters={filters} agents={agents.value} onApply={apply} />
      <p class="actions">
        <a
          class="button"
          href={exportHref("csv")}
          download
          onClick={(e) => onExportClick(e, exportHref("csv"), "conversations.csv", (m) => (said.value = m))}
        >
          {t(S.csv)}
        </a>
        <a
          class="button"
          href={exportHref("json")}
          download
          onClick={(e) => onExportClick(e, exportHref("json"), "conversations.json", (m) => (said.value = m))}
        >
          {t(S.json)}
        </a>
        <span class="muted" role="status">
          {loading.value ? "" : n(S.shown, rows.value.length)}
        </span>
      </p>
      {error.value && <p role="alert">{error.value}</p>}
      {!loading.value && !error.value && rows.value.length === 0 && <p>{t(S.none)}</p>}
      {rows.value.length > 0 && (
        <table class="conversations">
          <thead>
            <tr>
              <th scope="col">{t(S.first)}</th>
              <th scope="col">{t(S.opened)}</th>
              <th scope="col">{t(S.agent)}</th>
              <th scope="col">{t(S.messages)}</th>
              <th scope="col">{t(S.tokens)}</th>
              <th scope="col">{t(S.feedback)}</th>
              <th scope="col">{t(S.handledBy)}</th>
              <th scope="col">{t(S.flags)}</th>
            </tr>
          </thead>
          <tbody>
            {rows.value.map((r) => {
              const path = `conversations/${encodeURIComponent(r.sessionId)}`;
              return (
                <tr key={r.sessionId}>
                  <th scope="row">
                    <a href={href(path)} onClick={(e) => onLinkClick(e, path)}>
                      {r.firstText || t(S.noText)}
                    </a>
                  </th>
                  <td>{formatTime(r.openedAt)}</td>
                  <td>{r.agentId}</td>
                  <td>{r.messages}</td>
                  <td>{r.tokens.toLocaleString()}</td>
                  <td>
                    {r.feedbackUp || r.feedbackDown ? `${n(S.up, r.feedbackUp)} · ${n(S.down, r.feedbackDown)}` : ""}
                  </td>
                  <td>{t(r.handledBy === "human" ? S.human : S.byAgent)}</td>
                  <td>{flags(r)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {next.value !== undefined && (
        <button type="button" disabled={loading.value} onClick={() => load(next.value)}>
          {t(S.older)}
        </button>
      )}
      <Erasures />
    </section>
  );
}
