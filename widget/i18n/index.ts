import type { ErrorCode } from "../../shared/wire/errors.ts";
import type { Strings } from "./strings.ts";

export type { Strings };
export type WidgetLocale = "en" | "zh-CN";

/** Picks a supported locale from an explicit choice, else the browser's language. */
export function resolveLocale(explicit?: string | null, browser?: string): WidgetLocale {
  const raw = explicit || browser || (typeof navigator !== "undefined" ? navigator.language : "") || "en";
  return raw.toLowerCase().startsWith("zh") ? "zh-CN" : "en";
}

/** A count in the visitor's locale (Intl: digits and grouping as they expect). */
export function formatCount(locale: WidgetLocale, n: number): string {
  return new Intl.NumberFormat(locale).format(n);
}

/** A message's time of day, in the visitor's language and clock (Intl). */
export function formatTime(locale: WidgetLocale, at: number): string {
  return new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit" }).format(at);
}

/**
 * The visitor's strings. Each language is a chunk of its own, fetched before the panel draws, so
 * every visitor loads one language, not English in the core plus their own. English stands in if
 * Chinese fails. Strings shown only after a reply ship in the chunks that show them (reply-extras-strings.ts).
 */
export function loadStrings(locale: WidgetLocale): Promise<Strings> {
  const en = () => import("./strings.ts").then((m) => m.en);
  return locale === "zh-CN" ? import("./zh-cn.ts").then((m) => m.zhCN, en) : en();
}

/** Codes whose text is another's; any other code has its own `err_<code>` string, or the generic one. */
const SAME_TEXT: Partial<Record<ErrorCode, ErrorCode | "timeout">> = {
  forbidden_origin: "unknown_site",
  unknown_agent: "unknown_site",
  upstream_unreachable: "upstream_error",
  upstream_timeout: "timeout",
  misconfigured: "upstream_error",
  invalid_json: "bad_request",
  validation_failed: "bad_request",
};

/**
 * Visitor-facing text for an error code; server messages are for logs, not for visitors. With the
 * server's Retry-After (rate limits), the text says when trying again will work.
 */
export function errorText(strings: Strings, code: string, retryAfter?: number, locale: WidgetLocale = "en"): string {
  const own = strings[`err_${SAME_TEXT[code as ErrorCode] ?? code}` as keyof Strings];
  const text = own ?? strings.errGeneric;
  const wait = retryAfter ? strings.errRetryIn.replace("{n}", formatCount(locale, retryAfter)) : "";
  return !wait ? text : locale === "zh-CN" ? text + wait : `${text} ${wait}`;
}
