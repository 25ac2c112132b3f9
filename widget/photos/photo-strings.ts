/** The photo kit's own words (en, zh-CN): in its lazy chunk, not in the panel's core strings. */
const EN = {
  attach: "Attach a photo",
  camera: "Take a photo",
  remove: "Remove photo",
  preview: "Photo to send",
  sent: "Your photo",
  evidence: "Photo the advice is based on",
  agree: "Continue",
  cancel: "Not now",
  preparing: "Preparing photo…",
  unreadable: "This file can't be read as a photo. Try a JPEG or PNG.",
  tooLarge: (mb: string) => `This photo is too large to send, even made smaller (limit ${mb} MB).`,
  limit: (n: number) => `You can attach up to ${n} photos to one message.`,
  failed: "The photo could not be sent. Try again.",
  refused: "The photo was refused: ",
};
export type PhotoStrings = typeof EN;

const ZH: PhotoStrings = {
  attach: "添加照片",
  camera: "拍照",
  remove: "移除照片",
  preview: "待发送的照片",
  sent: "您的照片",
  evidence: "建议所依据的照片",
  agree: "继续",
  cancel: "暂不",
  preparing: "正在处理照片…",
  unreadable: "无法读取此文件，请使用 JPEG 或 PNG 照片。",
  tooLarge: (mb: string) => `照片缩小后仍然过大，无法发送（上限 ${mb} MB）。`,
  limit: (n: number) => `每条消息最多可添加 ${n} 张照片。`,
  failed: "照片发送失败，请重试。",
  refused: "照片被拒绝：",
};

export const photoStrings = (locale: string): PhotoStrings => (locale.startsWith("zh") ? ZH : EN);
