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
];
const KEYWORD_SET = new Set(KEYWORDS);

/** Real words one edit from a keyword: never "corrected". */
const REAL_WORDS = new Set([
  "chess",
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

export function normalizeText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/\bcan not\b/g, "can't")
    .replace(/[a-z][a-z']*/g, (w) => fixWord(w))
    .replace(/[ \t]+/g, " ");
}
