/** The words of a visitor's downloaded conversation (download-html.ts), in the session's language. */
const EN = {
  title: (agent: string) => `Your conversation with ${agent}`,
  meta: (id: string, opened: string, now: string) => `Conversation ${id} · started ${opened} · downloaded ${now}`,
  consent: "Consent",
  agreedChat: (v: string, at: string) => `You agreed to the conversation notice, version ${v}, on ${at}.`,
  agreedPhoto: (v: string, at: string) => `You agreed to the photo notice, version ${v}, on ${at}.`,
  conversation: "Conversation",
  you: "You",
  staff: (name: string) => `${name} (staff)`,
  stopped: "(stopped before the end)",
  photo: "Your photo",
  notEmbedded: (id: string) => `Photo ${id} is not in this file (the file would be too large).`,
  advice: "Advice",
  urgent: "Urgent",
  severity: { info: "Information", caution: "Caution", urgent: "Urgent" } as Record<string, string>,
  basedOn: "Based on",
  told: "What you told us",
  contacts: "Contact details you left",
  photos: "Other photos you added",
  footer:
    "This file was made at your request from the site's copy of this conversation. " +
    "It opens without a network; keep it private, as it may hold health details.",
};
export type DownloadStrings = typeof EN;

const ZH: DownloadStrings = {
  title: (agent) => `您与${agent}的对话`,
  meta: (id, opened, now) => `对话 ${id} · 开始于 ${opened} · 下载于 ${now}`,
  consent: "同意",
  agreedChat: (v, at) => `您于 ${at} 同意了对话告知（版本 ${v}）。`,
  agreedPhoto: (v, at) => `您于 ${at} 同意了照片告知（版本 ${v}）。`,
  conversation: "对话",
  you: "您",
  staff: (name) => `${name}（工作人员）`,
  stopped: "（回复未完成即停止）",
  photo: "您的照片",
  notEmbedded: (id) => `照片 ${id} 未包含在此文件中（文件会过大）。`,
  advice: "建议",
  urgent: "紧急",
  severity: { info: "信息", caution: "注意", urgent: "紧急" },
  basedOn: "依据",
  told: "您提供的信息",
  contacts: "您留下的联系方式",
  photos: "您添加的其他照片",
  footer: "此文件应您的要求，根据网站保存的本次对话生成。无需联网即可打开；其中可能含有健康信息，请妥善保管。",
};

export const downloadStrings = (locale: string): DownloadStrings => (locale.startsWith("zh") ? ZH : EN);
