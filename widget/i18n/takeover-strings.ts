import type { WidgetLocale } from "./index.ts";

/**
 * Takeover's strings: asking for a person, waiting, the contact form, a person's messages.
 * They ship in takeover's chunk: only sites that hand conversations to their staff show them, so the
 * core carries none. `{name}`, `{time}` and `{contact}` are filled in by `fill`.
 */
const en = {
  ask: "Talk to a person",
  askHint: "Ask for someone from our team to join this chat",
  waiting: "Waiting for a person from our team to join…",
  waited: "Waiting {time}",
  keepChatting: "The assistant keeps helping meanwhile.",
  joined: "{name} joined the conversation",
  back: "You're back with the assistant",
  withPerson: "You're chatting with {name}",
  staff: "Team",
  nobody: "Nobody from our team is available right now.",
  contactTitle: "Leave a way to reach you",
  contactName: "Name (optional)",
  contactWay: "Phone or e-mail",
  contactNote: "Note (optional)",
  contactSend: "Send",
  contactThanks: "Thank you. We will get back to you at {contact}.",
};

const zhCN: typeof en = {
  ask: "转人工",
  askHint: "请我们的工作人员加入对话",
  waiting: "正在等待工作人员加入……",
  waited: "已等待 {time}",
  keepChatting: "在此期间，助手会继续为您服务。",
  joined: "{name} 加入了对话",
  back: "已转回智能助手",
  withPerson: "您正在与 {name} 对话",
  staff: "工作人员",
  nobody: "目前没有工作人员在线。",
  contactTitle: "留下您的联系方式",
  contactName: "姓名（选填）",
  contactWay: "电话或邮箱",
  contactNote: "留言（选填）",
  contactSend: "提交",
  contactThanks: "谢谢！我们会通过 {contact} 与您联系。",
};

export type TakeoverStrings = typeof en;

export function takeoverStrings(locale: WidgetLocale): TakeoverStrings {
  return locale === "zh-CN" ? zhCN : en;
}

/** A string with its `{key}` slots filled. */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (slot, key: string) => values[key] ?? slot);
}
