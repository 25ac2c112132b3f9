import { matchesOf, type PiiMatch } from "./pii-types.ts";

/** name@domain.tld (an apostrophe may be in the name: o'brien@…); the at sign may be the full-width ＠ a Chinese keyboard types. */
const EMAIL =
  /(?<![\w.%+-])[\w.%+'-]*\w[@＠][A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}(?![A-Za-z])/g;

export function findEmails(text: string): PiiMatch[] {
  return [...matchesOf(EMAIL, text)].map((m) => ({ type: "email", start: m.index, end: m.index + m[0].length }));
}
