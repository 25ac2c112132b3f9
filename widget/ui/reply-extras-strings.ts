import { useEffect, useState } from "preact/hooks";

/**
 * The strings of what a reply shows besides its text (copy, rating, the model's working). They ship with
 * the reply-extras chunk, not in the language chunk the panel waits for: no one sees them before a reply,
 * and a Chinese visitor's first reply should not pay for them. English is here, the fallback; Chinese is a chunk of its
 * own (i18n/reply-zh-cn.ts), fetched when a Chinese visitor's reply first shows them.
 */
export const replyEn = {
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

export type ReplyExtrasStrings = typeof replyEn;

let zh: ReplyExtrasStrings | undefined;
let zhLoading: Promise<unknown> | undefined;

/** The strings in the visitor's locale; null while Chinese ones are on their way (nothing is shown then). */
export function useReplyExtrasStrings(locale: string): ReplyExtrasStrings | null {
  const [, setReady] = useState(false);
  const wanted = locale === "zh-CN" && !zh;
  useEffect(() => {
    if (!wanted) return;
    zhLoading ??= import("../i18n/reply-zh-cn.ts").then(
      (m) => (zh = m.replyZhCN),
      () => (zh = replyEn),
    );
    void zhLoading.then(() => setReady(true));
  }, [wanted]);
  return locale !== "zh-CN" ? replyEn : (zh ?? null);
}
