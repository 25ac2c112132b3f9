/**
 * The built-in compliance rules: claims no skin-care rep may make, and promises about price no rep
 * may give (en, zh). Each rule matches a phrase with the words around it that decide its grammar
 * (a verb after "to", a noun after "a", a passive after "was"), so its rewrite fits the sentence it
 * replaces: "guaranteed to cure eczema" becomes "designed to help soothe eczema", not a word swap.
 */
export interface CompiledRule {
  kind: "claim" | "price_promise";
  /** The tenant's phrase, or the built-in rule's name. */
  rule: string;
  re: RegExp;
  rewrite: string | ((m: RegExpMatchArray) => string);
}

const low = (s: string | undefined) => (s ?? "").toLowerCase();

/** The word before a match, lower-cased: it tells a noun ("a cure") from a verb ("to cure"). */
const wordBefore = (m: RegExpMatchArray) => low(/(\S+)\s+$/.exec(m.input?.slice(0, m.index) ?? "")?.[1]);

const NOUN_BEFORE = new Set([
  "a",
  "an",
  "the",
  "no",
  "miracle",
  "real",
  "effective",
  "our",
  "this",
  "any",
  "money-back",
]);

/** "cure" and its forms by what they are in the sentence: a verb or a noun. */
function cureRewrite(m: RegExpMatchArray): string {
  const w = low(m[1]);
  const noun = m[2] !== undefined || NOUN_BEFORE.has(wordBefore(m));
  if (noun) return (w === "cures" ? "soothing options" : "soothing option") + (m[2] ?? ""); // "a cure for acne"
  if (w === "cures") return "helps soothe";
  if (w === "cured") return "helped soothe";
  if (w === "curing") return "helping soothe";
  return "help soothe"; // "to cure", "will cure", "can cure", "they cure"
}

/** "guarantee" as a claim: "guaranteed to", "guaranteed results", "results are guaranteed", "we guarantee". */
function guaranteeRewrite(m: RegExpMatchArray): string {
  const w = low(m[0]);
  const wordAfter = /^ [a-z]/i.test(m.input?.slice((m.index ?? 0) + m[0].length) ?? "");
  if (/ to$/.test(w)) return "designed to";
  if (/^(?:is|are|was|were|be) /.test(w)) return m[0].split(" ")[0] + " likely";
  if (w === "guarantee" && NOUN_BEFORE.has(wordBefore(m))) return "assurance"; // "a money-back guarantee"
  if (w === "guarantees") return wordAfter ? "is designed to give" : "assurances";
  if (w === "guarantee") return "expect"; // "we guarantee results", "I guarantee you'll love it"
  return wordAfter ? "typical" : "expected"; // "guaranteed results"; "Results guaranteed!"
}

const priceVerb: Record<string, string> = {
  guarantee: "offer",
  guarantees: "offers",
  promise: "offer",
  promises: "offers",
  "lock in": "offer",
  "locked in": "offered",
};

export const BUILT_IN: CompiledRule[] = [
  // Price promises first: "guarantee this price" is a price promise, not the claim "guarantee".
  {
    kind: "price_promise",
    rule: "price never changes",
    re: new RegExp(
      [
        "\\b(?:the |our |this |these )?prices? (?:will never|won't|will not|",
        "is not going to|isn't going to|are not going to|aren't going to)",
        " (?:ever )?(?:change|go up|increase|rise)\\b",
      ].join(""),
      "gi",
    ),
    rewrite: "this price is valid until the quote expires",
  },
  {
    kind: "price_promise",
    rule: "lowest price",
    re: /\b(the )?lowest prices?(?: guaranteed| anywhere| on the market| in the market)?\b/gi,
    // "the lowest price" claims a comparison; "a competitive price" does not. "our lowest price" keeps "our".
    rewrite: (m) => (m[1] ? "a competitive price" : "competitive price"),
  },
  {
    kind: "price_promise",
    rule: "price guarantee",
    re: new RegExp(
      [
        "\\b(guarantees?|promises?|lock in|locked in)( you)? (this|the|a|that) ",
        "(price|discount|rate)(?: forever| for life)?\\b",
      ].join(""),
      "gi",
    ),
    rewrite: (m) => `${priceVerb[low(m[1])] ?? "offer"}${m[2] ?? ""} ${m[3]} ${m[4]} until the quote expires`,
  },
  { kind: "price_promise", rule: "guaranteed price", re: /\bguaranteed price\b/gi, rewrite: "quoted price" },
  {
    kind: "price_promise",
    rule: "永不涨价",
    re: /永不涨价|永远不(?:会)?涨价/g,
    rewrite: "在报价有效期内不涨价",
  },
  { kind: "price_promise", rule: "价格永远不变", re: /价格永远不变/g, rewrite: "报价在有效期内不变" },
  { kind: "price_promise", rule: "最低价", re: /全网最低价?|最低价(?:保证)?/g, rewrite: "有竞争力的价格" },
  { kind: "price_promise", rule: "保证价格", re: /保证价格/g, rewrite: "在报价有效期内保持价格" },
  // Claims.
  {
    kind: "claim",
    rule: "cure",
    re: /(?<!\bno )\b(cures?|cured|curing)( for)?\b/gi,
    rewrite: cureRewrite,
  },
  {
    kind: "claim",
    rule: "cure (passive)",
    re: /\b(?:be|is|are|was|were|been|get|gets|got) (?:completely |fully )?cured\b/gi,
    rewrite: (m) => `${m[0].split(" ")[0]} soothed`,
  },
  {
    kind: "claim",
    rule: "guaranteed",
    re: /\b(?:(?:is|are|was|were|be) guaranteed\b|guaranteed to\b|guaranteed\b|guarantees\b|guarantee\b)/gi,
    rewrite: guaranteeRewrite,
  },
  {
    kind: "claim",
    rule: "100% effective",
    re: /\b100 ?(?:%|percent) effective\b/gi,
    rewrite: "effective for many users",
  },
  { kind: "claim", rule: "100% safe", re: /\b100 ?(?:%|percent) safe\b/gi, rewrite: "well tolerated by most users" },
  {
    kind: "claim",
    rule: "100% results",
    re: /\b100 ?(?:%|percent) results?\b/gi,
    rewrite: "visible results for many users",
  },
  {
    kind: "claim",
    rule: "no side effects",
    re: /\b(?:no|zero|without(?: any)?) side[- ]effects\b/gi,
    // A noun phrase in every place the claim stands: "it has …", "with …", "there are …".
    rewrite: (m) => (/^without/i.test(m[0]) ? "with few reported side effects" : "few reported side effects"),
  },
  { kind: "claim", rule: "miracle", re: /\blike a miracle\b/gi, rewrite: "very well" },
  { kind: "claim", rule: "miracle", re: /\bmiracle\b(?= [a-z])/gi, rewrite: "effective" },
  { kind: "claim", rule: "miracle", re: /\bmiracle\b/gi, rewrite: "real help" },
  { kind: "claim", rule: "permanent", re: /\bpermanently\b/gi, rewrite: "lastingly" },
  { kind: "claim", rule: "permanent", re: /\bpermanent\b/gi, rewrite: "long-lasting" },
  {
    kind: "claim",
    rule: "treats",
    re: new RegExp(
      "\\b(treats?|heals?|treated|healed) ((?:my|your|his|her|their|the) )?" +
        "(eczema|psoriasis|acne|dermatitis|rosacea)\\b",
      "gi",
    ),
    rewrite: (m) => {
      const verb = low(m[1]);
      const help = verb.endsWith("ed") ? "helped" : verb.endsWith("s") ? "helps" : "help";
      return `${help} care for ${m[2] ?? ""}${m[3]}-prone skin`;
    },
  },
  // "改善" fits both "能根治湿疹" and "已经治好了"; "辅助护理" did not fit the second.
  { kind: "claim", rule: "保证治愈", re: /保证(?:彻底)?(?:根治|治愈|治好)/g, rewrite: "有助于改善" },
  { kind: "claim", rule: "根治/治愈", re: /彻底根治|根治|治愈|治好/g, rewrite: "改善" },
  {
    kind: "claim",
    rule: "保证有效",
    re: /保证有效|100%有效|百分之百有效/g,
    rewrite: "对多数人有效",
  },
  { kind: "claim", rule: "保证效果", re: /保证效果/g, rewrite: "力求效果" },
  { kind: "claim", rule: "保证见效", re: /保证见效/g, rewrite: "通常能见效" },
  {
    kind: "claim",
    rule: "无副作用",
    re: /无副作用|没有(?:任何)?副作用|零副作用/g,
    rewrite: "多数人耐受良好",
  },
];
