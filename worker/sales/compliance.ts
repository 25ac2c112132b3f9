import type { ComplianceRule } from "../../shared/config/guard-config.ts";
import { BUILT_IN, type CompiledRule } from "./compliance-rules.ts";

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

/** The rewrite as it stands in the sentence: a capital where the phrase had one. */
function fitted(rule: CompiledRule, m: RegExpMatchArray): string {
  const out = typeof rule.rewrite === "string" ? rule.rewrite : rule.rewrite(m);
  return /^[A-Z]/.test(m[0]) && /^[a-z]/.test(out) ? out[0].toUpperCase() + out.slice(1) : out;
}

/** "a" or "an" before the rewrite, by its first letter ("a miracle cream" → "an effective cream"). */
function withArticle(before: string, rewrite: string): string {
  const m = /\b(a|an)(\s+)$/i.exec(before);
  if (!m || !/^[a-z]/i.test(rewrite)) return before;
  const an = /^[aeiou]/i.test(rewrite);
  const article = m[1][0] + (an ? "n" : "");
  return before.slice(0, m.index) + article + m[2];
}

/**
 * The check, pure: every violation with its span and rewrite, earlier spans first. Where two rules
 * overlap, the one that starts first wins, then the longer ("guarantee this price" is one price
 * promise, not the claim "guarantee"), then the tenant's over the built-in.
 */
export function checkCompliance(text: string, tenantRules: readonly ComplianceRule[] = []): ComplianceResult {
  const candidates: Array<Violation & { order: number }> = [];
  const rules = [...tenantRules.map(compile), ...BUILT_IN];
  rules.forEach((r, order) => {
    for (const m of text.matchAll(r.re)) {
      const span: [number, number] = [m.index, m.index + m[0].length];
      candidates.push({ kind: r.kind, rule: r.rule, span, text: m[0], rewrite: fitted(r, m), order });
    }
  });
  candidates.sort((a, b) => a.span[0] - b.span[0] || b.span[1] - a.span[1] || a.order - b.order);
  const found: Violation[] = [];
  for (const { order: _, ...v } of candidates) {
    if (found.length && v.span[0] < found[found.length - 1].span[1]) continue;
    found.push(v);
  }
  let rewritten = "";
  let at = 0;
  for (const v of found) {
    rewritten = withArticle(rewritten + text.slice(at, v.span[0]), v.rewrite) + v.rewrite;
    at = v.span[1];
  }
  rewritten += text.slice(at);
  return { compliant: found.length === 0, violations: found, rewritten };
}
