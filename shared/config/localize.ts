import type { LocalizedText } from "./localized-text.ts";

/** The visitor's language's text of a LocalizedText (Chinese for any zh locale, else English). */
export function localize(text: LocalizedText, locale: string): string {
  return locale.toLowerCase().startsWith("zh") ? text["zh-CN"] : text.en;
}
