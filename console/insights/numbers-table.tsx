import type { InsightRow } from "../../shared/admin/conversation-query.ts";
import { t } from "../i18n.ts";

const S = {
  caption: { en: "The numbers, per day and agent", "zh-CN": "每日每个助手的数据" },
  day: { en: "Day (UTC)", "zh-CN": "日期(UTC)" },
  agent: { en: "Agent", "zh-CN": "助手" },
  conversations: { en: "Conversations", "zh-CN": "对话" },
  messages: { en: "Messages", "zh-CN": "消息" },
  tokens: { en: "Tokens", "zh-CN": "令牌" },
  budget: { en: "Of daily budget", "zh-CN": "占每日预算" },
  quick: { en: "Quick answers", "zh-CN": "快速回答占比" },
  p50: { en: "First token p50", "zh-CN": "首字节 p50" },
  p95: { en: "First token p95", "zh-CN": "首字节 p95" },
  tools: { en: "Tool calls", "zh-CN": "工具调用" },
  fails: { en: "Tool failures", "zh-CN": "工具失败" },
  up: { en: "Thumbs up", "zh-CN": "赞" },
  down: { en: "Thumbs down", "zh-CN": "踩" },
  rate: { en: "Up rate", "zh-CN": "好评率" },
  none: { en: "No conversations in this period.", "zh-CN": "此期间没有对话。" },
};

export const pct = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)}%` : "–");
export const msText = (v: number | null) => (v === null ? "–" : `${Math.round(v)} ms`);

/** Every figure the charts draw, as a table (the charts' text alternative). */
export function NumbersTable({ rows, budget }: { rows: InsightRow[]; budget: number }) {
  if (!rows.length) return <p>{t(S.none)}</p>;
  const cols = [S.conversations, S.messages, S.tokens, S.budget, S.quick, S.p50, S.p95, S.tools, S.fails];
  return (
    // Scrolls sideways on narrow screens: focusable, so a keyboard can scroll it too.
    <div class="numbers" role="region" aria-label={t(S.caption)} tabIndex={0}>
      <table>
        <caption>{t(S.caption)}</caption>
        <thead>
          <tr>
            <th scope="col">{t(S.day)}</th>
            <th scope="col">{t(S.agent)}</th>
            {[...cols, S.up, S.down, S.rate].map((c) => (
              <th scope="col" key={c.en}>
                {t(c)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.day}|${r.agent}`}>
              <th scope="row">{r.day}</th>
              <td>{r.agent}</td>
              <td>{r.conversations}</td>
              <td>{r.messages}</td>
              <td>{r.tokens.toLocaleString()}</td>
              <td>{pct(r.tokens, budget)}</td>
              <td>{pct(r.quickAnswers, r.answers)}</td>
              <td>{msText(r.ttftP50)}</td>
              <td>{msText(r.ttftP95)}</td>
              <td>{r.toolCalls}</td>
              <td>{r.toolFailures}</td>
              <td>{r.feedbackUp}</td>
              <td>{r.feedbackDown}</td>
              <td>{pct(r.feedbackUp, r.feedbackUp + r.feedbackDown)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
