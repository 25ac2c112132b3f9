import type { Signal } from "@preact/signals";
import { t } from "../i18n.ts";

/** The list's filters as the form holds them (query parameter names of ConversationQuery). */
export interface Filters {
  agent: string;
  fromDay: string;
  toDay: string;
  route: string;
  feedback: string;
  advice: boolean;
  escalated: boolean;
  interrupted: boolean;
  /** `agent` or `human` (a person from the staff took part: takeover). */
  handledBy: string;
  q: string;
}

export const NO_FILTERS: Filters = {
  agent: "",
  fromDay: "",
  toDay: "",
  route: "",
  feedback: "",
  advice: false,
  escalated: false,
  interrupted: false,
  handledBy: "",
  q: "",
};

const DAY_MS = 86_400_000;
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Query parameters of the worker's list (dates as UTC days: `to` is the end of its day). */
export function toQuery(f: Filters): URLSearchParams {
  const p = new URLSearchParams();
  if (f.agent) p.set("agent", f.agent);
  if (f.fromDay) p.set("from", String(dayMs(f.fromDay)));
  if (f.toDay) p.set("to", String(dayMs(f.toDay) + DAY_MS));
  if (f.route) p.set("route", f.route);
  if (f.feedback) p.set("feedback", f.feedback);
  if (f.handledBy) p.set("handledBy", f.handledBy);
  for (const k of ["advice", "escalated", "interrupted"] as const) if (f[k]) p.set(k, "1");
  if (f.q.trim()) p.set("q", f.q.trim());
  return p;
}

export function fromQuery(p: URLSearchParams): Filters {
  const day = (k: string, shift = 0) => (p.get(k) ? new Date(Number(p.get(k)) - shift).toISOString().slice(0, 10) : "");
  return {
    agent: p.get("agent") ?? "",
    fromDay: day("from"),
    toDay: day("to", DAY_MS),
    route: p.get("route") ?? "",
    feedback: p.get("feedback") ?? "",
    advice: p.has("advice"),
    escalated: p.has("escalated"),
    interrupted: p.has("interrupted"),
    handledBy: p.get("handledBy") ?? "",
    q: p.get("q") ?? "",
  };
}

const S = {
  legend: { en: "Filter conversations", "zh-CN": "筛选对话" },
  search: { en: "Search the visitor's first message", "zh-CN": "搜索访客的第一条消息" },
  agent: { en: "Agent", "zh-CN": "助手" },
  all: { en: "All", "zh-CN": "全部" },
  from: { en: "Opened from", "zh-CN": "开始日期" },
  to: { en: "Opened until", "zh-CN": "结束日期" },
  route: { en: "Route", "zh-CN": "路径" },
  quick: { en: "Quick answer", "zh-CN": "快速回答" },
  react: { en: "Agent loop", "zh-CN": "智能体循环" },
  feedback: { en: "Feedback", "zh-CN": "反馈" },
  up: { en: "Thumbs up", "zh-CN": "赞" },
  down: { en: "Thumbs down", "zh-CN": "踩" },
  any: { en: "Any rating", "zh-CN": "有评价" },
  none: { en: "No rating", "zh-CN": "无评价" },
  advice: { en: "With advice cards", "zh-CN": "含建议卡片" },
  escalated: { en: "Escalated", "zh-CN": "已升级(紧急)" },
  interrupted: { en: "Interrupted", "zh-CN": "已中断" },
  handledBy: { en: "Handled by", "zh-CN": "处理者" },
  byAgent: { en: "The agent only", "zh-CN": "仅助手" },
  byHuman: { en: "A person took part", "zh-CN": "有人工参与" },
  apply: { en: "Apply filters", "zh-CN": "应用筛选" },
  clear: { en: "Clear", "zh-CN": "清除" },
};

/** The filter form: every control labelled, Enter or "Apply" runs it. */
export function FilterForm(props: { filters: Signal<Filters>; agents: string[]; onApply: () => void }) {
  const f = props.filters;
  const set = <K extends keyof Filters>(k: K, v: Filters[K]) => (f.value = { ...f.value, [k]: v });
  const select = (id: keyof Filters, label: { en: string; "zh-CN": string }, options: Array<[string, string]>) => (
    <label for={`f-${id}`}>
      {t(label)}
      <select id={`f-${id}`} value={String(f.value[id])} onChange={(e) => set(id, e.currentTarget.value as never)}>
        <option value="">{t(S.all)}</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
  const check = (id: "advice" | "escalated" | "interrupted") => (
    <label class="check" for={`f-${id}`}>
      <input id={`f-${id}`} type="checkbox" checked={f.value[id]} onChange={(e) => set(id, e.currentTarget.checked)} />
      {t(S[id])}
    </label>
  );
  return (
    <form
      class="filters"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        props.onApply();
      }}
    >
      <fieldset>
        <legend>{t(S.legend)}</legend>
        <label for="f-q" class="wide">
          {t(S.search)}
          <input id="f-q" type="search" value={f.value.q} onInput={(e) => set("q", e.currentTarget.value)} />
        </label>
        {select(
          "agent",
          S.agent,
          props.agents.map((a) => [a, a]),
        )}
        <label for="f-from">
          {t(S.from)}
          <input
            id="f-from"
            type="date"
            value={f.value.fromDay}
            onChange={(e) => set("fromDay", e.currentTarget.value)}
          />
        </label>
        <label for="f-to">
          {t(S.to)}
          <input id="f-to" type="date" value={f.value.toDay} onChange={(e) => set("toDay", e.currentTarget.value)} />
        </label>
        {select("route", S.route, [
          ["quick", t(S.quick)],
          ["react", t(S.react)],
        ])}
        {select("feedback", S.feedback, [
          ["up", t(S.up)],
          ["down", t(S.down)],
          ["any", t(S.any)],
          ["none", t(S.none)],
        ])}
        {select("handledBy", S.handledBy, [
          ["agent", t(S.byAgent)],
          ["human", t(S.byHuman)],
        ])}
        {check("advice")}
        {check("escalated")}
        {check("interrupted")}
        <div class="filter-actions">
          <button type="submit">{t(S.apply)}</button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              f.value = NO_FILTERS;
              props.onApply();
            }}
          >
            {t(S.clear)}
          </button>
        </div>
      </fieldset>
    </form>
  );
}
