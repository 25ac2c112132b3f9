import type { WidgetLocale } from "../i18n/index.ts";

/** The lead card's strings, in each locale: they ship in the card's chunk, never in the core. */
const en = {
  title: "Talk to our team",
  intro: "Leave your details and the team will get back to you.",
  name: "Name",
  email: "E-mail",
  company: "Company (optional)",
  consent: "You may contact me about this by e-mail.",
  send: "Send",
  sending: "Sending…",
  sent: "Thank you. The team will contact you at {email}.",
  sentNoEmail: "Thank you. The team will contact you.",
  needName: "Please write your name.",
  needEmail: "Please write an e-mail address we can reach you at.",
  needConsent: "Please tick the box so the team may contact you.",
  failed: "Your details could not be sent just now. They are kept: try again in a moment.",
};

const zhCN: typeof en = {
  title: "联系我们的团队",
  intro: "留下您的联系方式，团队会与您联系。",
  name: "姓名",
  email: "电子邮箱",
  company: "公司（选填）",
  consent: "我同意团队就此事通过电子邮件与我联系。",
  send: "发送",
  sending: "正在发送…",
  sent: "谢谢。团队将通过 {email} 与您联系。",
  sentNoEmail: "谢谢。团队将与您联系。",
  needName: "请填写您的姓名。",
  needEmail: "请填写一个能联系到您的电子邮箱。",
  needConsent: "请勾选同意，团队才能与您联系。",
  failed: "暂时无法发送您的信息。信息已保留，请稍后再试。",
};

export type LeadStrings = typeof en;
export const leadStrings = (locale: WidgetLocale): LeadStrings => (locale === "zh-CN" ? zhCN : en);
