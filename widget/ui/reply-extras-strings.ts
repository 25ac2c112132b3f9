/**
 * The strings of what a reply shows besides its text (copy, rating, the model's working), in each
 * supported locale. They ship in the reply-extras chunk, not in the visitor's language chunk that the
 * panel waits for: no one sees them before a reply has finished (issue 18, a Chinese first reply's bytes).
 */
const en = {
  reasoning: "How I got there",
  toolRunning: "working…",
  toolKnowledge: "Searched our documents",
  toolWeb: "Searched the web",
  toolOther: "Used a tool",
  copy: "Copy reply",
  copied: "Copied",
  helpful: "Helpful",
  notHelpful: "Not helpful",
  feedbackAsk: "What went wrong? (optional)",
  feedbackSend: "Send",
};

const zhCN: typeof en = {
  reasoning: "思考过程",
  toolRunning: "进行中…",
  toolKnowledge: "查阅了资料库",
  toolWeb: "搜索了网络",
  toolOther: "使用了工具",
  copy: "复制回复",
  copied: "已复制",
  helpful: "有帮助",
  notHelpful: "没有帮助",
  feedbackAsk: "哪里不好？（可选）",
  feedbackSend: "提交",
};

export type ReplyExtrasStrings = typeof en;

export const replyExtrasStrings = (locale: string): ReplyExtrasStrings => (locale === "zh-CN" ? zhCN : en);
