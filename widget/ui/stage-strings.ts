import type { WidgetLocale } from "../i18n/index.ts";

/**
 * The stage panel's and action cards' own strings, in each supported locale. They ship in the stage
 * panel's chunk: only stage workflows show them, so the core carries none of them.
 */
const en = {
  stageDone: "done",
  stageCurrent: "current",
  edit: "Edit",
  save: "Save",
  cancel: "Cancel",
  completeStage: "Complete stage",
  blocked: "Fix these before you go on:",
  warnings: "Worth a look:",
  conflict:
    "Someone changed this meanwhile — here are the newest values. Apply your change again if it is still needed.",
  workflowDone: "All stages are complete.",
  summary: "Summary",
  copySummary: "Copy",
  download: "Download .md",
  run: "Run",
  open: "Open",
  calculate: "Calculate",
  errFormInvalid: "Some of these values are not valid. Please check them and try again.",
};

const zhCN: typeof en = {
  stageDone: "已完成",
  stageCurrent: "当前",
  edit: "编辑",
  save: "保存",
  cancel: "取消",
  completeStage: "完成本阶段",
  blocked: "请先处理以下问题：",
  warnings: "建议检查：",
  conflict: "内容已被更新，这里显示最新的值。如仍需修改，请重新操作。",
  workflowDone: "所有阶段均已完成。",
  summary: "方案摘要",
  copySummary: "复制",
  download: "下载 .md",
  run: "运行",
  open: "打开",
  calculate: "计算",
  errFormInvalid: "部分数值无效，请检查后重试。",
};

export type StageStrings = typeof en;

export const stageStrings = (locale: WidgetLocale): StageStrings => (locale === "zh-CN" ? zhCN : en);
