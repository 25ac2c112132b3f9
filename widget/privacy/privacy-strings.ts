/** The consent notice's and the visitor's data panel's words (en, zh-CN): in their lazy chunk, not the core's. */
const EN = {
  consentTitle: "Before we start",
  privacyLink: "Privacy notice",
  agree: "I agree",
  decline: "No, thanks",
  declinedTitle: "Nothing was stored",
  declined: "You declined, so this chat stays closed and nothing you typed was sent. You can close this panel.",
  review: "Read the notice again",
  failed: "That did not work. Please try again.",
  rightsTitle: "Your data",
  rightsIntro: "This conversation is yours: take a copy with you, or delete it.",
  downloadHtml: "Download (readable file)",
  downloadJson: "Download (JSON)",
  downloaded: "Your download has started.",
  erase: "Delete this conversation",
  confirm: "Delete this conversation for good? Its messages, photos and everything the site keeps of it go now.",
  eraseYes: "Delete for good",
  keep: "Keep it",
  erased: "The conversation was deleted. You can start a new one.",
};
export type PrivacyStrings = typeof EN;

const ZH: PrivacyStrings = {
  consentTitle: "开始之前",
  privacyLink: "隐私声明",
  agree: "我同意",
  decline: "不同意",
  declinedTitle: "未保存任何内容",
  declined: "您已拒绝，因此本次聊天不会开始，您输入的内容也没有发送。您可以关闭此面板。",
  review: "重新阅读声明",
  failed: "操作未成功，请重试。",
  rightsTitle: "您的数据",
  rightsIntro: "此对话属于您：您可以下载一份副本，或将其删除。",
  downloadHtml: "下载（可阅读的文件）",
  downloadJson: "下载（JSON）",
  downloaded: "下载已开始。",
  erase: "删除此对话",
  confirm: "确定永久删除此对话吗？其消息、照片以及网站保存的所有相关内容将立即删除。",
  eraseYes: "永久删除",
  keep: "保留",
  erased: "对话已删除。您可以开始新的对话。",
};

export const privacyStrings = (locale: string): PrivacyStrings => (locale.startsWith("zh") ? ZH : EN);
