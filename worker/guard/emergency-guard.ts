import type { EmergencyCategory, EscalationVariant } from "../../shared/wire/protocol.ts";
import {
  clauseAround,
  generalQuestion,
  inThePast,
  negatedBefore,
  resolvedAfter,
  sentenceAround,
} from "./context-cues.ts";
import { framedAsInformation } from "./information-frame.ts";
import { normalizeText } from "./normalize.ts";
import { byCategoryOrder, type EmergencyRule } from "./rule-types.ts";
import { EN_LOOKALIKES, EN_RULES } from "./rules-en.ts";
import { ZH_LOOKALIKES, ZH_RULES } from "./rules-zh.ts";
import { matchSituation } from "./situation-guard.ts";
import type { Situation } from "./situations/sign.ts";

export type EmergencyVerdict =
  | { emergency: false }
  | {
      emergency: true;
      category: EmergencyCategory;
      situation: Situation;
      variant: EscalationVariant;
      matched: string;
    };

/** The situation a phrase rule's category belongs to, for the trace and the per-situation figures. */
const SITUATION_OF: Record<EmergencyCategory, Situation> = {
  cardiac: "circulation",
  bleeding: "circulation",
  collapse: "neuro",
  stroke: "neuro",
  seizure: "neuro",
  breathing: "airway",
  anaphylaxis: "drug_reaction",
  skin_reaction: "drug_reaction",
  poisoning: "poisoning",
  self_harm: "self_harm",
  harm_to_others: "violence",
  sepsis: "sepsis",
  burn: "burns",
  obstetric: "obstetric",
  heat: "heat_gas",
  gas: "heat_gas",
  cold: "heat_gas",
  vascular: "circulation",
  circulation: "circulation",
  neuro: "neuro",
  drug_reaction: "drug_reaction",
  child: "child",
  heat_gas: "heat_gas",
};

const CJK = /[\u3400-\u9fff]/;
const zhClauseQuestion = (clause: string) => CJK.test(clause) && generalQuestion(clause);
const LATIN = /[a-z]/;

/** Suicidal thoughts get the crisis card: a listening tone and the crisis line, no first-aid steps. */
export const variantOf = (category: EmergencyCategory): EscalationVariant =>
  category === "self_harm" ? "crisis" : "emergency";

const EN = byCategoryOrder(EN_RULES);
const ZH = byCategoryOrder(ZH_RULES);

/**
 * All of a language's rules as one regex, tried before the rules one by one: most messages match
 * none, and each rule's matchAll copies its regex (74 copies a message cost the chat route about
 * 0.1 ms). A message that no rule matches gets the same verdict without them; one rule per group of
 * flags, so each alternative keeps its own.
 */
function anyOf(res: readonly RegExp[]): RegExp[] {
  const byFlags = new Map<string, string[]>();
  for (const re of res) {
    const flags = re.flags.replace("g", "");
    byFlags.set(flags, [...(byFlags.get(flags) ?? []), `(?:${re.source})`]);
  }
  return [...byFlags].map(([flags, sources]) => new RegExp(sources.join("|"), flags));
}
const EN_ANY = anyOf(EN.map((r) => r.re));
const ZH_ANY = anyOf(ZH.map((r) => r.re));
const EN_LOOKALIKE = anyOf(EN_LOOKALIKES);
const ZH_LOOKALIKE = anyOf(ZH_LOOKALIKES);

function withoutLookalikes(text: string, lookalikes: readonly RegExp[], any: readonly RegExp[]): string {
  // Each replacement leaves a text no other look-alike matches in unchanged: one pass says so.
  if (!any.some((re) => re.test(text))) return text;
  let out = text;
  for (const re of lookalikes) out = out.replace(re, " ~ ");
  return out;
}

function firstMatch(text: string, rules: readonly EmergencyRule[], any: readonly RegExp[]): EmergencyVerdict | null {
  if (!any.some((re) => re.test(text))) return null;
  for (const r of rules) {
    if (r.also && !r.also.test(text)) continue;
    for (const m of text.matchAll(r.re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (negatedBefore(text, start) || resolvedAfter(text, end)) continue;
      if (
        inThePast(clauseAround(text, start, end)) ||
        (!r.evenAsked &&
          (generalQuestion(sentenceAround(text, start, end)) || zhClauseQuestion(clauseAround(text, start, end))))
      )
        continue;
      return {
        emergency: true,
        category: r.category,
        situation: SITUATION_OF[r.category],
        variant: variantOf(r.category),
        matched: m[0].trim().slice(0, 200),
      };
    }
  }
  return null;
}

/**
 * The deterministic layer: pure, synchronous, well under a millisecond for a chat message (see
 * `npm run bench:safety`). It reads one visitor message twice: the phrase rules (rules-en.ts,
 * rules-zh.ts) for how emergencies are said, then the clinical model (situations/) for what they
 * are, signs in combination. What makes words not count (negation, the past, a general question, a
 * look-alike, a story or the news) is in context-cues.ts, information-frame.ts and the rule files.
 */
export function checkEmergency(message: string): EmergencyVerdict {
  const text = normalizeText(message.slice(0, 4000));
  if (framedAsInformation(text)) return { emergency: false };
  const hasZh = CJK.test(text);
  const hasEn = LATIN.test(text);
  // Mixed messages are read by both rule sets; each only where its script occurs.
  const zhText = hasZh ? withoutLookalikes(text, ZH_LOOKALIKES, ZH_LOOKALIKE) : text;
  const zh = hasZh ? firstMatch(zhText, ZH, ZH_ANY) : null;
  if (zh) return zh;
  const plain = hasEn ? withoutLookalikes(zhText, EN_LOOKALIKES, EN_LOOKALIKE) : zhText;
  const en = hasEn ? firstMatch(plain, EN, EN_ANY) : null;
  if (en) return en;
  const found = matchSituation(plain);
  return found ? { emergency: true, ...found, variant: variantOf(found.category) } : { emergency: false };
}
