import { isCnResidentId, isNhsNumber, isSsn } from "./check-digits.ts";
import { matchesOf, type PiiMatch } from "./pii-types.ts";

const match = (start: number, text: string): PiiMatch => ({ type: "id-number", start, end: start + text.length });

const CN_ID = /(?<![0-9A-Za-z])\d{17}[\dXx](?![0-9A-Za-z])/g;
/** 123-45-6789 or 123 45 6789: the grouping itself says SSN; a bare nine digits only after the words. */
const SSN = /(?<![\d-])(\d{3})([- ])(\d{2})\2(\d{4})(?![\d-])/g;
const SSN_BARE = /(?:\bssn|social security(?: number| no\.?)?)\W{0,12}(?<![\d-])(\d{3})(\d{2})(\d{4})(?!\d)/gi;
const NHS = /(?<![\d-])(\d{3})([ -]?)(\d{3})\2(\d{4})(?![\d-])/g;
const NHS_WORDS = /\bnhs\b|health (?:service|care) (?:number|no)/i;
/**
 * UK National Insurance number: two letters (not D, F, I, Q, U, V; not BG, GB, KN, NK, NT, TN, ZZ), six
 * digits, A-D.
 */
const NINO = new RegExp(
  String.raw`(?<![A-Za-z0-9])(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]` +
    String.raw` ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9])`,
  "g",
);
/** US Medicare Beneficiary Identifier: 11 characters in a fixed pattern, letters without S, L, O, I, B, Z. */
const L = "[AC-HJKMNP-RT-Y]";
const MBI = new RegExp(
  `(?<![A-Za-z0-9])[1-9]${L}[${L.slice(1, -1)}0-9]\\d-?${L}[${L.slice(1, -1)}0-9]\\d-?${L}{2}\\d{2}(?![A-Za-z0-9])`,
  "g",
);
/**
 * A number named by the words before it: insurance, member, policy, passport, resident card and social
 * security numbers in English and Chinese. The value: letters and digits, at least five of them digits.
 */
const NUMBER_WORDS =
  "insurance|medicare|medicaid|policy|passport|member(?:ship)?|subscriber|医保|社保|保险|护照|身份证|证件|通行证|居住证";
const FILLER = String.raw`卡|号码|号|编号|number|no\.?|id|card|is|#|[\s:：.=-]|是|为`;
const NAMED = new RegExp(
  String.raw`(?:${NUMBER_WORDS})(?:${FILLER}){0,6}(?=(?:[A-Z-]*\d){5})([A-Z0-9][A-Z0-9-]{4,23})(?![A-Za-z0-9])`,
  "gi",
);

/** National identity, insurance and passport numbers (the `id-number` placeholder). */
export function findIdNumbers(text: string): PiiMatch[] {
  const found: PiiMatch[] = [];
  for (const m of matchesOf(CN_ID, text)) if (isCnResidentId(m[0])) found.push(match(m.index, m[0]));
  for (const m of matchesOf(SSN, text)) if (isSsn(m[1], m[3], m[4])) found.push(match(m.index, m[0]));
  for (const m of matchesOf(SSN_BARE, text)) {
    if (!isSsn(m[1], m[2], m[3])) continue;
    const digits = `${m[1]}${m[2]}${m[3]}`;
    found.push(match(m.index + m[0].length - digits.length, digits));
  }
  for (const m of matchesOf(NHS, text)) {
    if (!isNhsNumber(`${m[1]}${m[3]}${m[4]}`)) continue;
    // Spaced 3 3 4 is how NHS numbers are written; run together or hyphenated only after the words.
    const named = NHS_WORDS.test(text.slice(Math.max(0, m.index - 40), m.index));
    if (m[2] === " " || named) found.push(match(m.index, m[0]));
  }
  for (const m of matchesOf(NINO, text)) found.push(match(m.index, m[0]));
  for (const m of matchesOf(MBI, text)) found.push(match(m.index, m[0]));
  for (const m of matchesOf(NAMED, text)) {
    const value = m[1];
    // An 18-character resident number is one only with its check character right (CN_ID above).
    if (/^\d{17}[\dX]$/i.test(value) && !isCnResidentId(value)) continue;
    found.push(match(m.index + m[0].length - value.length, value));
  }
  return found;
}
