/**
 * The advice cards' and advice list's own strings, in each supported locale. They ship in the advice
 * card's chunk: only agents that record advice show them, so the core carries none of them.
 */
const en = {
  advice: "Advice",
  adviceEmpty: "Advice the assistant gives you will be kept here.",
  evidence: "Based on",
  sevInfo: "Tip",
  sevCaution: "Caution",
  sevUrgent: "Urgent",
};

const zhCN: typeof en = {
  advice: "建议",
  adviceEmpty: "助手给您的建议会保存在这里。",
  evidence: "依据",
  sevInfo: "提示",
  sevCaution: "注意",
  sevUrgent: "紧急",
};

export type AdviceStrings = typeof en;

export const adviceStrings = (locale: string): AdviceStrings => (locale === "zh-CN" ? zhCN : en);
