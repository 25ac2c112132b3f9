import { matchesOf, type PiiMatch } from "./pii-types.ts";

/**
 * name@domain.tld (an apostrophe may be in the name: o'brien@…); the at sign may be the full-width ＠
 * a Chinese keyboard types.
 */
const NAME = String.raw`(?<![\w.%+-])[\w.%+'-]*\w`;
const DOMAIN = String.raw`[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}(?![A-Za-z])`;
const EMAIL = new RegExp(`${NAME}[@＠]${DOMAIN}`, "g");

export function findEmails(text: string): PiiMatch[] {
  return [...matchesOf(EMAIL, text)].map((m) => ({ type: "email", start: m.index, end: m.index + m[0].length }));
}
