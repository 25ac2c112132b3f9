import type { EmergencyCategory } from "../../shared/wire/protocol.ts";
import {
  clauseAround,
  generalQuestion,
  inThePast,
  negatedBefore,
  resolvedAfter,
  sentenceAround,
} from "./context-cues.ts";
import { SITUATION_MODELS } from "./situations/index.ts";
import type { Sign, Situation } from "./situations/sign.ts";

export interface SituationMatch {
  situation: Situation;
  category: EmergencyCategory;
  /** The words that made each sign, joined: what the trace shows the owner. */
  matched: string;
}

/**
 * Where a symptom sign is said as happening: not negated just before it, not said to be over, not
 * placed in the past, not inside a general question. A context sign (a new medicine, a baby) only
 * needs to be there.
 */
interface Hit {
  start: number;
  end: number;
  words: string;
}

function liveHits(text: string, s: Sign): Hit[] {
  const hits: Hit[] = [];
  for (const m of text.matchAll(s.re)) {
    const start = m.index;
    const end = start + m[0].length;
    if (s.negatable && negatedBefore(text, start)) continue;
    if (!s.context) {
      if (negatedBefore(text, start) || resolvedAfter(text, end)) continue;
      const clause = clauseAround(text, start, end);
      if (inThePast(clause)) continue;
      // A Chinese clause can be a question of its own inside a longer sentence ("想问心梗有哪些症状").
      if (generalQuestion(sentenceAround(text, start, end)) || (CJK.test(clause) && generalQuestion(clause))) continue;
    }
    hits.push({ start, end, words: m[0].trim() });
  }
  return hits;
}

const CJK = /[\u3400-\u9fff]/;

const overlaps = (a: Hit, b: Hit) => a.start < b.end && b.start < a.end;

/**
 * The clinical model over one normalized message: the first situation whose signs all hold, each
 * sign on words of its own (one "dizzy" is not both faintness and shock). Each sign is read once a
 * message, however many combinations share it.
 */
export function matchSituation(text: string): SituationMatch | null {
  const seen = new Map<Sign, Hit[]>();
  const read = (s: Sign) => {
    let hits = seen.get(s);
    if (hits === undefined) {
      hits = liveHits(text, s);
      seen.set(s, hits);
    }
    return hits;
  };
  // Words for each sign, none shared; a few signs with a few hits each, so a plain backtrack.
  const assign = (signs: readonly Sign[], used: Hit[]): Hit[] | null => {
    if (used.length === signs.length) return used;
    for (const h of read(signs[used.length])) {
      if (used.some((u) => overlaps(u, h))) continue;
      const done = assign(signs, [...used, h]);
      if (done) return done;
    }
    return null;
  };
  for (const model of SITUATION_MODELS) {
    for (const combination of model.combinations) {
      if (combination.unless?.test(text)) continue;
      const used = assign(combination.all, []);
      if (used) {
        const matched = used.map((h) => h.words).join(" + ");
        return { situation: model.id, category: combination.category, matched: matched.slice(0, 200) };
      }
    }
  }
  return null;
}
