/// <reference path="./opencc-dict.d.ts" />
import HK_VARIANTS from "opencc-js/dict/HKVariantsRev";
import TS_CHARACTERS from "opencc-js/dict/TSCharacters";
import { pinyinAsCharacters } from "./pinyin.ts";
/**
 * Text as the guard's rules read it: NFKC (full-width letters and digits become ASCII), lower case,
 * one kind of apostrophe, and common misspellings of the words the rules need put right. Visitors in
 * distress type fast; "cant breath", "chets pain" and "sucidal" must read like the real words.
 */

/** Spellings too far from the word for the edit check below, and chat shorthand. */
const SPELLINGS: Record<string, string> = {
  cant: "can't",
  cannot: "can't",
  cnt: "can't",
  couldnt: "couldn't",
  dont: "don't",
  doesnt: "doesn't",
  didnt: "didn't",
  wont: "won't",
  isnt: "isn't",
  im: "i'm",
  ive: "i've",
  hes: "he's",
  shes: "she's",
  its: "it's",
  wanna: "want to",
  gonna: "going to",
  u: "you",
  ur: "your",
  chst: "chest",
  brethe: "breathe",
  breth: "breath",
  sueside: "suicide",
  suecide: "suicide",
  suiside: "suicide",
  kms: "kill myself",
  unalive: "kill",
  attak: "attack",
  atack: "attack",
  hart: "heart",
  pian: "pain",
  paim: "pain",
  apin: "pain",
  od: "overdose",
  hasnt: "hasn't",
  havent: "haven't",
  wasnt: "wasn't",
  werent: "weren't",
  arent: "aren't",
  whats: "what's",
  thats: "that's",
  theres: "there's",
  youre: "you're",
  theyre: "they're",
  mins: "minutes",
  pils: "pills",
  "od'd": "overdosed",
};

/** Words the rules hinge on; a word one edit away from one of them (same first letter) is read as it. */
const KEYWORDS = [
  "chest",
  "breathe",
  "breathing",
  "breath",
  "stroke",
  "bleeding",
  "suicide",
  "suicidal",
  "overdose",
  "overdosed",
  "unconscious",
  "unresponsive",
  "allergic",
  "swelling",
  "swollen",
  "seizure",
  "choking",
  "myself",
  "poisoned",
  "swallowed",
  "pressure",
  "drooping",
  "slurred",
  "slurring",
  "anaphylaxis",
  "anaphylactic",
  "crushing",
  "squeezing",
  "tightness",
  "attack",
  "heart",
  "numbness",
  "paracetamol",
  "acetaminophen",
  "tablets",
  "bleach",
  "temperature",
  "vomiting",
  "blisters",
  "poisoning",
  "pregnant",
];
const KEYWORD_SET = new Set(KEYWORDS);

/** Real words one edit from a keyword: never "corrected". */
const REAL_WORDS = new Set([
  "chess",
  "beach",
  "drooling",
  "dropping",
  "dripping",
  "breeding",
  "beaches",
  "chests",
  "strike",
  "stoke",
  "stoked",
  "strobe",
  "strokes",
  "breadth",
  "breathes",
  "spelling",
  "dwelling",
  "smelling",
  "shelling",
  "selling",
  "swelled",
  "attach",
  "attacks",
  "hearth",
  "hearts",
  "heard",
  "heat",
  "hears",
  "hearty",
  "tablet",
  "bleaches",
  "breather",
  "seizures",
  "stroked",
  "pressures",
  "pressured",
]);

/** Within one edit: a letter changed, added, dropped, or two neighbours swapped (Damerau). */
function oneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

const fixed = new Map<string, string>();

function fixWord(word: string): string {
  const known = SPELLINGS[word];
  if (known !== undefined) return known;
  if (word.length < 5 || KEYWORD_SET.has(word) || REAL_WORDS.has(word)) return word;
  let hit = fixed.get(word);
  if (hit === undefined) {
    hit = KEYWORDS.find((k) => k[0] === word[0] && oneEdit(word, k)) ?? word;
    // Bounded: a visitor's vocabulary is not allowed to grow the isolate's memory.
    if (fixed.size < 5000) fixed.set(word, hit);
  }
  return hit;
}

/**
 * Traditional characters (Taiwan, Hong Kong) as simplified, by OpenCC's character dictionaries: the
 * Chinese rules are written once, in simplified. Character by character is enough for matching; the
 * map is built on the first Chinese message an isolate reads (about 2 ms, within a Worker's CPU
 * budget), then a message costs microseconds.
 */
let toSimplified: Map<string, string> | undefined;
/** One OpenCC dictionary's single characters; where an entry lists alternatives, OpenCC's first. */
function characters(dict: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of dict.split("|")) {
    const [from, to] = pair.split(" ");
    if (from && to && [...from].length === 1) map.set(from, [...to][0]);
  }
  return map;
}
/** Hong Kong variant forms to standard traditional, then traditional to simplified, composed. */
function simplifiedMap(): Map<string, string> {
  const hk = characters(HK_VARIANTS);
  const ts = characters(TS_CHARACTERS);
  const map = new Map(ts);
  for (const [from, standard] of hk) map.set(from, ts.get(standard) ?? standard);
  return map;
}
const CJK_CHAR = /[\u3400-\u9fff\uf900-\ufaff]/g;
const simplified = (text: string) => {
  const map = (toSimplified ??= simplifiedMap());
  return text.replace(CJK_CHAR, (c) => map.get(c) ?? c);
};

/** Cantonese words as the Mandarin the rules read: "叫極都唔醒" is "叫极都不醒". */
const CANTONESE: [RegExp, string][] = [
  [/(?:冇|唔)郁/g, "没动"],
  [/依家|而家/g, "现在"],
  [/晕低/g, "晕倒"],
  [/头先/g, "刚才"],
  [/叫唔应/g, "叫不醒"],
  [/唔识出声/g, "说不出话"],
  [/屙尿/g, "小便"],
  [/肚屙|屙肚|肚泻/g, "拉肚子"],
  [/穿咗水/g, "破水"],
  [/唔/g, "不"],
  [/冇/g, "没"],
  [/咗/g, "了"],
  [/佢/g, "他"],
  [/係/g, "是"],
  [/喺/g, "在"],
  [/啲/g, "些"],
  [/嘢/g, "东西"],
  [/眼瞓/g, "困"],
  [/想瞓/g, "想睡"],
  [/瞓/g, "睡"],
  [/睇/g, "看"],
  [/饮(?=咗|了|紧|完)/g, "喝"],
  [/嘅/g, "的"],
  [/哽/g, "噎"],
  [/攰/g, "累"],
  [/翳/g, "闷"],
  [/(?:讲|话)东西/g, "说话"],
  [/好辛苦/g, "很难受"],
  // Only where it is the verb: 误食 and 食物 stay as they are.
  [/食(?=了|紧|东西|错|完|过)/g, "吃"],
];

// A space between two Chinese characters does a comma's work: "我2018年心梗 现在想做激光" is two clauses.
const CJK_SPACE = /(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])/g;

export function normalizeText(text: string): string {
  let out = text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/\bcan not\b/g, "can't")
    .replace(/[a-z][a-z']*/g, (w) => fixWord(w))
    .replace(/[ \t]+/g, " ");
  out = pinyinAsCharacters(out);
  if (/[\u3400-\u9fff]/.test(out)) {
    out = simplified(out);
    for (const [re, to] of CANTONESE) out = out.replace(re, to);
    out = out.replace(CJK_SPACE, "，");
  }
  return out;
}
