import { matchesOf, type PiiMatch } from "./pii-types.ts";

const MONTHS =
  "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|" +
  "nov(?:ember)?|dec(?:ember)?";
/** A date with its year: numeric, ISO, written out (4 July 1979, July 4th, 1979, March 1980), or Chinese. */
const DATE = new RegExp(
  [
    String.raw`(?<!\d)\d{4}[-./]\d{1,2}[-./]\d{1,2}(?!\d)`,
    String.raw`(?<![\d/.-])\d{1,2}[-./]\d{1,2}[-./](?:\d{4}|\d{2})(?![\d/.-]*\d)`,
    String.raw`\b\d{1,2}(?:st|nd|rd|th)?(?: of)? (?:${MONTHS})\.?,? \d{4}\b`,
    String.raw`\b(?:${MONTHS})\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}\b`,
    String.raw`\b(?:${MONTHS})\.? \d{4}\b`,
    String.raw`(?<!\d)(?:\d{4}|\d{2})\s?年\s?\d{1,2}\s?月(?:\s?\d{1,2}\s?[日号])?`,
  ].join("|"),
  "gi",
);

/**
 * Birth words, before the date (born on, DOB:, 出生日期：) or just after it (1988年6月15日出生, 生的).
 * A date without them (an appointment, when a rash began, an order's date) is not a birth date.
 */
const BEFORE = /(?:\bborn\b|\bbirth|\bd\.?o\.?b\b|\bb\.|\bbday\b|出生|生日|生于|诞生)[^.!?。！？\n]{0,24}$/i;
const AFTER = /^\s?(?:出生|生的|生人|生日|出世)/;

export function findBirthDates(text: string): PiiMatch[] {
  const found: PiiMatch[] = [];
  for (const m of matchesOf(DATE, text)) {
    const end = m.index + m[0].length;
    const before = text.slice(Math.max(0, m.index - 40), m.index);
    if (BEFORE.test(before) || AFTER.test(text.slice(end, end + 4)))
      found.push({ type: "birth-date", start: m.index, end });
  }
  return found;
}
