/** Messages both of the sign-in page's forms give (the team's ways in and the admin key). */
export const SIGN_IN_TEXT = {
  needSite: { en: "Write your site key first.", "zh-CN": "请先填写站点密钥。" },
  limited: { en: "Too many attempts. Try again in {s} s.", "zh-CN": "尝试次数过多,请 {s} 秒后再试。" },
};
