import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { InsightRow, Insights as InsightsAnswer } from "../../shared/admin/conversation-query.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api } from "../api.ts";
import { t } from "../i18n.ts";
import type { PageProps } from "../pages.ts";
import { BarChart, type Bar } from "../insights/bar-chart.tsx";
import { msText, NumbersTable, pct } from "../insights/numbers-table.tsx";

const S = {
  title: { en: "Insights", "zh-CN": "数据洞察" },
  period: { en: "Period", "zh-CN": "时间范围" },
  days: { en: "Last {n} days", "zh-CN": "最近 {n} 天" },
  agent: { en: "Agent", "zh-CN": "助手" },
  all: { en: "All agents", "zh-CN": "全部助手" },
  conversations: { en: "Conversations", "zh-CN": "对话数" },
  messages: { en: "Messages", "zh-CN": "消息数" },
  tokens: { en: "Tokens (dashed: daily budget)", "zh-CN": "令牌(虚线:每日预算)" },
  quick: { en: "Quick-path answers", "zh-CN": "快速路径回答占比" },
  ttft: { en: "Time to first token, p50 and p95", "zh-CN": "首字节时间 p50 与 p95" },
  fails: { en: "Tool failures", "zh-CN": "工具失败" },
  rate: { en: "Thumbs up rate", "zh-CN": "好评率" },
  today: { en: "latest day: {v}", "zh-CN": "最近一天:{v}" },
  failed: { en: "Could not load insights: {m}", "zh-CN": "无法加载数据:{m}" },
};

const DAY_MS = 86_400_000;
const RANGES = [7, 14, 30, 90];

/** Each day of the period, with the row across agents for it (or nothing that day). */
function byDay(a: InsightsAnswer): Array<{ day: string; row: InsightRow | undefined }> {
  const out = [];
  for (let d = a.from; d < a.to; d += DAY_MS) {
    const day = new Date(d).toISOString().slice(0, 10);
    out.push({ day, row: a.days.find((r) => r.day === day) });
  }
  return out;
}

/** Per day (and agent): volume, cost against the budget, speed, tool health and visitors' ratings. */
export default function Insights(_: PageProps) {
  const range = useSignal(14);
  const agent = useSignal("");
  const data = useSignal<InsightsAnswer | null>(null);
  const error = useSignal("");

  async function load() {
    const to = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) + DAY_MS;
    try {
      data.value = await api.get(ROUTES.adminInsights, {
        query: { from: to - range.value * DAY_MS, to, agent: agent.value || undefined },
      });
      error.value = "";
    } catch (err) {
      error.value = t(S.failed).replace("{m}", err instanceof Error ? err.message : String(err));
    }
  }
  useEffect(() => void load(), []);

  const a = data.value;
  const days = a ? byDay(a) : [];
  const latest = (v: string) => t(S.today).replace("{v}", v);
  const last = days.at(-1)?.row;
  const bars = (get: (r: InsightRow) => number | null, get2?: (r: InsightRow) => number | null): Bar[] =>
    days.map(({ day, row }) => ({
      label: day,
      value: row ? get(row) : null,
      ...(get2 ? { value2: row ? get2(row) : null } : {}),
    }));
  const share = (part: number, whole: number) => (whole ? (part / whole) * 100 : null);
  return (
    <section aria-labelledby="insights-title">
      <h1 id="insights-title">{t(S.title)}</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <fieldset>
          <legend class="muted">{t(S.title)}</legend>
          <label for="i-range">
            {t(S.period)}
            <select
              id="i-range"
              value={String(range.value)}
              onChange={(e) => {
                range.value = Number(e.currentTarget.value);
                void load();
              }}
            >
              {RANGES.map((n) => (
                <option key={n} value={n}>
                  {t(S.days).replace("{n}", String(n))}
                </option>
              ))}
            </select>
          </label>
          <label for="i-agent">
            {t(S.agent)}
            <select
              id="i-agent"
              value={agent.value}
              onChange={(e) => {
                agent.value = e.currentTarget.value;
                void load();
              }}
            >
              <option value="">{t(S.all)}</option>
              {(a?.agents ?? []).map((x) => (
                <option key={x} value={x}>
                  {x}
                </option>
              ))}
            </select>
          </label>
        </fieldset>
      </form>
      {error.value && <p role="alert">{error.value}</p>}
      {a && (
        <>
          <div class="charts">
            <BarChart
              title={t(S.conversations)}
              summary={latest(String(last?.conversations ?? 0))}
              bars={bars((r) => r.conversations)}
              format={(v) => String(Math.round(v))}
            />
            <BarChart
              title={t(S.messages)}
              summary={latest(String(last?.messages ?? 0))}
              bars={bars((r) => r.messages)}
              format={(v) => String(Math.round(v))}
            />
            <BarChart
              title={t(S.tokens)}
              summary={latest(`${(last?.tokens ?? 0).toLocaleString()} (${pct(last?.tokens ?? 0, a.budgetPerDay)})`)}
              bars={bars((r) => r.tokens)}
              limit={a.budgetPerDay}
              format={(v) => Math.round(v).toLocaleString()}
            />
            <BarChart
              title={t(S.quick)}
              summary={latest(last ? pct(last.quickAnswers, last.answers) : "–")}
              bars={bars((r) => share(r.quickAnswers, r.answers))}
              max={100}
              format={(v) => `${Math.round(v)}%`}
            />
            <BarChart
              title={t(S.ttft)}
              summary={latest(`${msText(last?.ttftP50 ?? null)} / ${msText(last?.ttftP95 ?? null)}`)}
              bars={bars(
                (r) => r.ttftP50,
                (r) => r.ttftP95,
              )}
              format={(v) => `${Math.round(v)} ms`}
            />
            <BarChart
              title={t(S.fails)}
              summary={latest(`${last?.toolFailures ?? 0} / ${last?.toolCalls ?? 0}`)}
              bars={bars((r) => r.toolFailures)}
              format={(v) => String(Math.round(v))}
            />
            <BarChart
              title={t(S.rate)}
              summary={latest(last ? pct(last.feedbackUp, last.feedbackUp + last.feedbackDown) : "–")}
              bars={bars((r) => share(r.feedbackUp, r.feedbackUp + r.feedbackDown))}
              max={100}
              format={(v) => `${Math.round(v)}%`}
            />
          </div>
          <NumbersTable rows={a.rows} budget={a.budgetPerDay} />
        </>
      )}
    </section>
  );
}
