import type { WidgetLocale } from "../i18n/index.ts";

/**
 * The trace view's strings. Only site owners in debug mode see them, so they live in the trace
 * view's lazy chunk rather than in i18n/strings.ts, which every visitor loads.
 */
const en = {
  title: "Trace of this conversation",
  empty: "No steps recorded yet.",
  loading: "Loading the trace…",
  failed: "The trace couldn't be loaded.",
  refresh: "Refresh",
  time: "Time",
  kind: "Kind",
  name: "Name",
  ms: "ms",
  ok: "OK",
  okYes: "ok",
  okNo: "failed",
};

const zhCN: typeof en = {
  title: "本次对话的追踪记录",
  empty: "暂无记录的步骤。",
  loading: "正在加载追踪记录…",
  failed: "无法加载追踪记录。",
  refresh: "刷新",
  time: "时间",
  kind: "类型",
  name: "名称",
  ms: "毫秒",
  ok: "结果",
  okYes: "成功",
  okNo: "失败",
};

export const traceStrings = (locale: WidgetLocale) => (locale === "zh-CN" ? zhCN : en);
