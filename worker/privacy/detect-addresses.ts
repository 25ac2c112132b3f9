import { matchesOf, type PiiMatch } from "./pii-types.ts";

/** Either case: a visitor types "42 elm road" as often as "42 Elm Road". */
const anyCase = (words: string[]) => words.map((w) => `[${w[0].toUpperCase()}${w[0]}]${w.slice(1)}`).join("|");
/** Capitalised only: words of everyday speech too ("a 3 way call", "2 close friends"). */
const capital = (words: string[]) => words.map((w) => w[0].toUpperCase() + w.slice(1)).join("|");
const SUFFIX =
  anyCase(["street", "road", "avenue", "lane", "boulevard", "parkway", "highway", "terrace", "crescent"]) +
  "|" +
  capital(["st", "rd", "ave", "ln", "dr", "blvd", "ct", "pl", "pkwy", "sq", "hwy", "drive", "way", "court", "place"]) +
  "|" +
  capital(["close", "square", "row", "mews", "gardens", "grove", "walk"]);
/** Words that never sit between a house number and its street's name ("2 tablets on Main Street"). */
const NOT_A_NAME =
  "on|at|in|of|the|to|for|from|near|and|with|by|per|a|an|or|every|times|mg|ml|tablets?|pills?|" +
  "minutes?|hours?|days?|weeks?|months?|years?";
const NAME = String.raw`(?!(?:${NOT_A_NAME})\b)[A-Za-z][A-Za-z'’-]*`;
/** UK postcode, US state and ZIP, Australian state and postcode. */
const POSTAL = [
  String.raw`[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}`,
  String.raw`[A-Z]{2} \d{5}(?:-\d{4})?`,
  String.raw`(?:NSW|VIC|QLD|WA|SA|TAS|ACT|NT) \d{4}`,
].join("|");
const CITY = String.raw`[A-Z][a-z][A-Za-z'-]*(?: [A-Z][a-z][A-Za-z'-]*){0,2}`;
const UNIT = String.raw`(?:${anyCase(["apt", "apartment", "suite", "unit", "flat", "floor"])}|#)\.? ?\w{1,5}`;

/**
 * A street address in English: an optional flat, a house number, up to three name words and a street
 * word, then optionally a flat, a town and a postcode (221B Baker Street, London NW1 6XE).
 */
const EN = new RegExp(
  String.raw`(?:\b${UNIT},? )?\b\d{1,5}[A-Za-z]?,? (?:${NAME} ){0,3}(?:${SUFFIX})\b\.?` +
    String.raw`(?:,? ${UNIT})?(?:,? ${CITY})?(?:,? (?:${POSTAL}))?(?![A-Za-z0-9])`,
  "g",
);

const HAN = String.raw`\u4e00-\u9fff`;
/**
 * A Chinese address: optionally province, city, district and town, then a road (路, 街, 大道, 巷, 弄,
 * 胡同, with its 段) and a number with 号, then the compound, building, unit and room (10号院, 2号楼1205室,
 * A座, 5栋302).
 */
const ZH = new RegExp(
  String.raw`(?:[${HAN}]{2,3}?(?:省|自治区))?(?:[${HAN}]{2,4}?市)?(?:[${HAN}]{1,5}?(?:区|县|旗))?` +
    String.raw`(?:[${HAN}]{1,5}?(?:镇|乡|街道))?[${HAN}A-Za-z0-9]{1,10}?(?:路|街|大道|巷|弄|胡同)` +
    String.raw`(?:[一二三四五六七八九十\d]{1,3}段)?\d{1,5}号` +
    String.raw`(?:[${HAN}A-Za-z0-9-]{0,12}?(?:号楼|院|栋|幢|座|单元|楼|层|室|\d))*`,
  "g",
);
/** Words a sentence puts before an address that the Chinese pattern would otherwise take as a place name. */
const LEAD = /^[我住在到是寄至往于的址：:请送家]+/;

export function findAddresses(text: string): PiiMatch[] {
  const found: PiiMatch[] = [];
  for (const m of matchesOf(EN, text)) found.push({ type: "address", start: m.index, end: m.index + m[0].length });
  for (const m of matchesOf(ZH, text)) {
    const lead = LEAD.exec(m[0])?.[0].length ?? 0;
    if (m[0].length - lead >= 4) found.push({ type: "address", start: m.index + lead, end: m.index + m[0].length });
  }
  return found;
}
