/**
 * Scoring of the trace redaction on a labelled set (test/fixtures/redaction-*.json), for bench:redact
 * and the worker's redaction test. A labelled span is caught when detections of its own type cover at
 * least 80 % of its characters (spaces aside: where an address ends is a matter of taste, its number and
 * postcode are not); a detection is a false redaction when most of it lies outside every labelled span.
 */
import { findPii } from "../../worker/privacy/find-pii.ts";
import { PII_TYPES, type PiiMatch, type PiiType } from "../../worker/privacy/pii-types.ts";

export interface RedactionCase {
  lang: "en" | "zh";
  text: string;
  spans: Array<{ type: PiiType; text: string }>;
}

export interface TypeScore {
  labelled: number;
  caught: number;
  /** Covered, but by another type's placeholder: gone from the text, typed wrong. */
  otherType: number;
  falseRedactions: number;
}

export interface SetScore {
  byType: Record<PiiType, TypeScore>;
  misses: string[];
  falses: string[];
}

const covered = (start: number, end: number, text: string, by: PiiMatch[]) => {
  let chars = 0;
  let hit = 0;
  for (let i = start; i < end; i++) {
    if (/\s/.test(text[i])) continue;
    chars++;
    if (by.some((m) => m.start <= i && i < m.end)) hit++;
  }
  return chars ? hit / chars : 1;
};

export function scoreSet(cases: readonly RedactionCase[]): SetScore {
  const byType = Object.fromEntries(
    PII_TYPES.map((t) => [t, { labelled: 0, caught: 0, otherType: 0, falseRedactions: 0 }]),
  ) as Record<PiiType, TypeScore>;
  const misses: string[] = [];
  const falses: string[] = [];
  for (const c of cases) {
    const found = findPii(c.text);
    const labelled = c.spans.map((s) => {
      const start = c.text.indexOf(s.text);
      if (start < 0) throw new Error(`span ${JSON.stringify(s.text)} is not in ${JSON.stringify(c.text)}`);
      return { ...s, start, end: start + s.text.length };
    });
    for (const s of labelled) {
      const score = byType[s.type];
      score.labelled++;
      if (
        covered(
          s.start,
          s.end,
          c.text,
          found.filter((m) => m.type === s.type),
        ) >= 0.8
      )
        score.caught++;
      else {
        if (covered(s.start, s.end, c.text, found) >= 0.8) score.otherType++;
        misses.push(`${s.type}: ${JSON.stringify(s.text)} in ${JSON.stringify(c.text)}`);
      }
    }
    for (const m of found) {
      const spans = labelled.map((s) => ({ type: s.type, start: s.start, end: s.end }));
      if (covered(m.start, m.end, c.text, spans) >= 0.5) continue;
      byType[m.type].falseRedactions++;
      falses.push(`${m.type}: ${JSON.stringify(c.text.slice(m.start, m.end))} in ${JSON.stringify(c.text)}`);
    }
  }
  return { byType, misses, falses };
}
