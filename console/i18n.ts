import { signal } from "@preact/signals";
import type { Locale, LocalizedText } from "../shared/config/localized-text.ts";
import { localize } from "../shared/config/localize.ts";

const STORE = "parley-console-locale";

function initialLocale(): Locale {
  // The owner's own choice first (a language preference, nothing secret), then the page's language
  // (the worker picks it from Accept-Language).
  const chosen = localStorage.getItem(STORE) ?? document.documentElement.lang;
  return chosen.toLowerCase().startsWith("zh") ? "zh-CN" : "en";
}

export const locale = signal<Locale>(initialLocale());

export function setLocale(next: Locale): void {
  locale.value = next;
  localStorage.setItem(STORE, next);
  document.documentElement.lang = next;
}

/** Text in the console's language. Strings sit beside the code that shows them, both languages together. */
export const t = (text: LocalizedText): string => localize(text, locale.value);

/** A date and time as the owner's language writes it. */
export const formatTime = (ms: number): string =>
  new Date(ms).toLocaleString(locale.value, { dateStyle: "medium", timeStyle: "short" });
