import type { ReplyExtrasStrings } from "../ui/reply-extras-strings.ts";

/**
 * A finished reply's strings in Simplified Chinese (copy, rating, the model's working): a chunk of its own
 * that the reply-extras chunk fetches for Chinese visitors, so English visitors' paths carry one language.
 */
export const replyZhCN: ReplyExtrasStrings = {
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
