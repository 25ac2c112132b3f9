import type { ComplianceRule } from "../../shared/guard-config.ts";

export interface Violation {
  kind: "claim" | "price_promise";
  /** The rule's phrase, or the built-in rule's name. */
  rule: string;
  /** [start, end) in the checked text. */
  span: [number, number];
  text: string;
  rewrite: string;
}

export interface ComplianceResult {
  compliant: boolean;
  violations: Violation[];
  /** The text with every violation replaced by its rewrite. */
  rewritten: string;
}

interface CompiledRule {
  kind: Violation["kind"];
  rule: string;
  re: RegExp;
  rewrite: string;
}

/** Claims no skin-care rep may make, and promises about price no rep may give (en, zh). */
const BUILT_IN: CompiledRule[] = [
  { kind: "claim", rule: "cure", re: /\b(?:cures?|cured|curing)\b/gi, rewrite: "helps care for" },
  { kind: "claim", rule: "guaranteed", re: /\b(?:guaranteed?|guarantees)\b(?! price)/gi, rewrite: "designed to" },
  {
    kind: "claim",
    rule: "100% effective",
    re: /\b100 ?(?:%|percent) (?:effective|results?|safe)\b/gi,
    rewrite: "effective for many users",
  },
  {
    kind: "claim",
    rule: "no side effects",
    re: /\b(?:no|zero|without (?:any )?) ?side[- ]effects\b/gi,
    rewrite: "well tolerated by most users",
  },
  { kind: "claim", rule: "miracle", re: /\bmiracle\b/gi, rewrite: "effective" },
  { kind: "claim", rule: "permanent", re: /\bpermanent(?:ly)?\b/gi, rewrite: "long-lasting" },
  {
    kind: "claim",
    rule: "treats",
    re: /\b(?:treats?|heals?) (?:eczema|psoriasis|acne|dermatitis|rosacea)\b/gi,
    rewrite: "supports skin with this condition as part of a routine",
  },
  { kind: "claim", rule: "根治/治愈", re: /根治|治愈|治好/g, rewrite: "辅助护理" },
  {
    kind: "claim",
    rule: "保证效果",
    re: new RegExp(["保证(?:有效|效果|见效)|100%有效|百分之百有效"].join(""), "g"),
    rewrite: "对多数人有帮助",
  },
  {
    kind: "claim",
    rule: "无副作用",
    re: new RegExp(["无副作用|没有(?:任何)?副作用|零副作用"].join(""), "g"),
    rewrite: "多数人耐受良好",
  },
  {
    kind: "price_promise",
    rule: "price never changes",
    re: new RegExp(
      [
        "\\b(?:the )?price(?:s)? (?:will|won't|will not|is not going t",
        "o|isn't going to) (?:never |ever )?(?:change|go up|increase|",
        "rise)\\b",
      ].join(""),
      "gi",
    ),
    rewrite: "this price is valid until the quote expires",
  },
  {
    kind: "price_promise",
    rule: "lowest price",
    re: /\b(?:the )?lowest price(?: (?:guaranteed|anywhere|on the market|in the market))?\b/gi,
    rewrite: "a competitive price",
  },
  {
    kind: "price_promise",
    rule: "price guarantee",
    re: new RegExp(
      [
        "\\b(?:guarantee|promise|lock in|locked in)(?: you)? (?:this|t",
        "he|a|that) (?:price|discount|rate)(?: forever| for life)?\\b|",
        "\\bguaranteed? price\\b",
      ].join(""),
      "gi",
    ),
    rewrite: "offer this price for the quote's validity period",
  },
  {
    kind: "price_promise",
    rule: "永不涨价",
    re: /永不涨价|永远不(?:会)?涨价|价格永远不变|全网最低价?|最低价(?:保证)?|保证价格/g,
    rewrite: "当前报价（有效期内）",
  },
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A tenant's phrase: case-insensitive; whole words where it starts or ends with a letter or digit. */
function compile(rule: ComplianceRule): CompiledRule {
  const head = /^\w/.test(rule.phrase) ? "\\b" : "";
  const tail = /\w$/.test(rule.phrase) ? "\\b" : "";
  return {
    kind: rule.kind,
    rule: rule.phrase,
    re: new RegExp(`${head}${escape(rule.phrase)}${tail}`, "gi"),
    rewrite: rule.rewrite,
  };
}

/**
 * The check, pure: every violation with its span and rewrite, earlier spans first; where two rules
 * overlap, the first found keeps the span.
 */
export function checkCompliance(text: string, tenantRules: readonly ComplianceRule[] = []): ComplianceResult {
  const found: Violation[] = [];
  for (const r of [...tenantRules.map(compile), ...BUILT_IN]) {
    for (const m of text.matchAll(r.re)) {
      const span: [number, number] = [m.index, m.index + m[0].length];
      if (found.some((v) => span[0] < v.span[1] && v.span[0] < span[1])) continue;
      found.push({ kind: r.kind, rule: r.rule, span, text: m[0], rewrite: r.rewrite });
    }
  }
  found.sort((a, b) => a.span[0] - b.span[0]);
  let rewritten = "";
  let at = 0;
  for (const v of found) {
    rewritten += text.slice(at, v.span[0]) + v.rewrite;
    at = v.span[1];
  }
  rewritten += text.slice(at);
  return { compliant: found.length === 0, violations: found, rewritten };
}
