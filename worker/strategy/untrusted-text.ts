/**
 * Visitor text as the strategy desk's models and checks read it. Pure.
 *
 * Quoted: a JSON string literal, so the text cannot end its quotes, begin a line of its own or
 * write a delimiter of the prompt around it (`<`, `>`), and invisible or line-breaking characters
 * (zero-width, bidi controls, Unicode tag characters that smuggle ASCII) show as escapes.
 */
const VISIBLE_ONLY = /[<>\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}]/gu;

const escapeUnit = (c: string) =>
  Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`).join("");

export function quoteUntrusted(text: string, max = 1000): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(cut).replace(VISIBLE_ONLY, escapeUnit);
}

/** Compatibility forms folded (full-width letters and digits), invisible characters dropped, lower case. */
export function foldText(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/\p{Cf}/gu, "")
    .toLowerCase();
}

/**
 * Words of a text, for comparing texts verbatim: runs of letters and digits; each Chinese or
 * Japanese character is a word of its own, as those scripts have no spaces.
 */
const CJK = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}";
const WORD = new RegExp(`[${CJK}]|(?:(?![${CJK}])[\\p{L}\\p{N}\\p{M}])+`, "gu");

export function wordsOf(text: string): string[] {
  return foldText(text).match(WORD) ?? [];
}

/** One complaint however it is spaced, cased or punctuated: "Too slow!" and "too slow" are the same. */
export function complaintKey(text: string): string {
  return wordsOf(text).join(" ");
}
