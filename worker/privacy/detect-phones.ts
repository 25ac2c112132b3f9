import { matchesOf, type PiiMatch } from "./pii-types.ts";

/**
 * A run that may be a phone number: an optional + or opening parenthesis, then digits in groups
 * separated by spaces, hyphens, dots or parentheses; never touching a Latin letter or another digit, so
 * the digits inside a tracking code (1Z999AA1…), an order code (SF123…) or a longer number are not taken.
 * The groups are taken whole (a lookahead and its backreference: no backtracking into them) and a run
 * starts only at its first group, so a long run of numbers costs linear time, not quadratic.
 */
const CANDIDATE = new RegExp(
  String.raw`(?<![\p{Script=Latin}\p{N}+.,/-])(?<!\d[ .()-]{1,2})(?:\+|\(\s?)?` +
    String.raw`(?=(\d+(?:[ .()-]{1,2}\d+)*))\1(?!\p{N}|[.,/-]\d|\p{Script=Latin})`,
  "gu",
);

/** Shapes a phone number has, tried against the whole run (separators are any of space, hyphen, dot). */
const SHAPES = [
  // International, with its +: 8 to 15 digits (E.164).
  /^\+\d[\d ().-]+$/,
  // China's mobiles: 1[3-9]x xxxx xxxx, with +86 or not (the + case is above).
  /^(?:86[ -]?)?1[3-9]\d(?:[ -]?\d{4}){2}$/,
  // China's fixed lines: area code 0xx or 0xxx, then 7 or 8 digits.
  /^\(?0\d{2,3}\)?[ -]?\d{7,8}$/,
  // North America: (415) 555-0132, 415-555-0132, 415.555.0132; area and exchange never start with 0 or 1.
  /^\(?[2-9]\d{2}\)?[ .-]?[2-9]\d{2}[ .-]\d{4}$/,
  // A trunk 0 and 9-10 digits in the groups Britain, Australia and Europe write them in: 07700 900123, 020 7946 0958.
  /^0\d{1,4}[ -]\d{3,4}[ -]?\d{3,4}$/,
  /^0\d{4}[ -]\d{5,6}$/,
];

/** Words that say the number after them is not a phone number. */
const NOT_A_PHONE = new RegExp(
  "(?:order|invoice|inv|ref(?:erence)?|tracking|batch|lot|build|version|ver|serial|case|ticket|account|acct|" +
    String.raw`订单|单号|编号|批号|版本|发票|流水|取件码|账号)\W{0,3}(?:no\.?|number|#|id|号|码)?\W{0,3}` +
    String.raw`(?:is|was|是|为)?\W{0,3}$`,
  "i",
);
/** Words that say the number after them is one: then shorter or unusual shapes count too (7-15 digits). */
const PHONE_WORDS = new RegExp(
  "phone|tel|telephone|mobile|cell|call|ring|text|sms|whatsapp|wechat|fax|number is|电话|手机|座机|微信|联系|致电|打|拨",
  "i",
);

const digitsIn = (s: string) => s.replace(/\D/g, "").length;

/** Looks like a date or an amount written with separators: 2024-02-15, 12.03.1985, 1.249.999. */
const DATE_LIKE = /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4})$/;

export function findPhones(text: string): PiiMatch[] {
  const found: PiiMatch[] = [];
  for (const m of matchesOf(CANDIDATE, text)) {
    const run = m[0];
    const digits = digitsIn(run);
    if (digits < 7 || digits > 15 || DATE_LIKE.test(run)) continue;
    const before = text.slice(Math.max(0, m.index - 24), m.index);
    if (NOT_A_PHONE.test(before) || /[$£€¥￥]\s*$/.test(before)) continue;
    const shaped = SHAPES.some((s) => s.test(run)) && (!run.startsWith("+") || digits >= 8);
    const named = PHONE_WORDS.test(before.slice(-16));
    if (shaped || named) found.push({ type: "phone", start: m.index, end: m.index + run.length });
  }
  return found;
}
