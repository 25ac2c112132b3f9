import { describe, expect, it } from "vitest";
import { errorText, loadStrings, resolveLocale } from "../../widget/i18n/index.ts";
import { en } from "../../widget/i18n/strings.ts";
import { replyZhCN } from "../../widget/i18n/reply-zh-cn.ts";
import { replyEn } from "../../widget/ui/reply-extras-strings.ts";
import { VISITOR_TEXT } from "../../worker/llm/provider-errors.ts";

/** Every key of `a` in `b` too and the other way round, none empty: a language is complete. */
function expectComplete(a: Record<string, string>, b: Record<string, string>) {
  expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
  for (const [k, v] of Object.entries(b)) expect(v.trim(), k).not.toBe("");
}

describe("widget strings", () => {
  it("loads one language per visitor, each complete", async () => {
    const english = await loadStrings("en");
    const chinese = await loadStrings("zh-CN");
    expect(english).toBe(en);
    expectComplete(en, chinese);
    // Translated, not English left in place (the brand name aside).
    const same = Object.keys(en).filter((k) => chinese[k as keyof typeof en] === en[k as keyof typeof en]);
    expect(same).toEqual([]);
    expect(resolveLocale("zh-TW")).toBe("zh-CN");
    expect(errorText(chinese, "rate_limited", 30, "zh-CN")).toBe(`${chinese.err_rate_limited}30 秒后可以重试。`);
  });

  it("names each error code's text, a shared one for codes that mean the same, else the generic one", () => {
    expect(errorText(en, "network")).toBe(en.err_network);
    expect(errorText(en, "upstream_timeout")).toBe(en.err_timeout);
    expect(errorText(en, "forbidden_origin")).toBe(en.err_unknown_site);
    expect(errorText(en, "validation_failed")).toBe(en.err_bad_request);
    expect(errorText(en, "payload_too_large")).toBe(en.err_payload_too_large);
    expect(errorText(en, "internal")).toBe(en.errGeneric);
    expect(errorText(en, "constructor")).toBe(en.errGeneric);
  });

  it("shows a provider's failure codes their own text in both languages, the same the worker answers", async () => {
    const chinese = await loadStrings("zh-CN");
    for (const [code, text] of Object.entries(VISITOR_TEXT)) {
      expect(errorText(en, code), code).toBe(text.en);
      expect(errorText(chinese, code, undefined, "zh-CN"), code).toBe(text["zh-CN"]);
      expect(errorText(en, code), code).not.toBe(en.errGeneric);
    }
    // A rate limit with the provider's Retry-After says when.
    expect(errorText(en, "upstream_busy", 20)).toBe(`${en.err_upstream_busy} You can try again in 20\u00a0s.`);
  });

  it("carries a finished reply's strings in its chunk, in both languages", () => {
    expectComplete(replyEn, replyZhCN);
    expect(
      Object.keys(replyEn).filter((k) => replyZhCN[k as keyof typeof replyEn] === replyEn[k as keyof typeof replyEn]),
    ).toEqual([]);
  });

  it("says offline and a message kept for later in Chinese", async () => {
    const zh = await loadStrings("zh-CN");
    expect(zh.offline).toBe("您已离线，消息会保留");
    expect(zh.queued).toBe("尚未发送，联网后自动发送");
  });

  it("says a refusal in Chinese, with when to try again", async () => {
    const zh = await loadStrings("zh-CN");
    expect(errorText(zh, "rate_limited", 30, "zh-CN")).toBe("您发送得有点快，请稍后再试。30 秒后可以重试。");
    expect(errorText(zh, "budget_exceeded")).toBe(zh.err_budget_exceeded);
  });
});
