/**
 * Scoring for bench:safety: runs one labelled set through the guard (the rules, then the classifier
 * where they found nothing, as in the worker) and works out recall, false positives and categories.
 */
import { readFileSync } from "node:fs";
import { classify } from "../../worker/guard/classifier.ts";
import { checkEmergency } from "../../worker/guard/emergency-guard.ts";

export interface Case {
  text: string;
  lang: "en" | "zh";
  emergency: boolean;
  kind: string;
  category?: string;
  /** Main set only. 1: written before the rules were tuned; 2: after the first tuning (see its `about`). */
  round?: 1 | 2;
}

export const loadSet = (file: string): Case[] =>
  (JSON.parse(readFileSync(new URL(file, import.meta.url), "utf8")) as { cases: Case[] }).cases;

export interface Classifier {
  url: string;
  kind: "moderation" | "chat";
  model?: string;
  key?: string;
}

export interface Verdict {
  c: Case;
  rules: boolean;
  guard: boolean;
  category: string | null;
  situation: string | null;
}

export async function runSet(cases: Case[], classifier: Classifier | null, failures: { n: number }) {
  const out: Verdict[] = [];
  for (const c of cases) {
    const rules = checkEmergency(c.text);
    if (rules.emergency || !classifier) {
      out.push({
        c,
        rules: rules.emergency,
        guard: rules.emergency,
        category: rules.emergency ? rules.category : null,
        situation: rules.emergency ? rules.situation : null,
      });
      continue;
    }
    const res = await classify(
      { kind: classifier.kind, timeoutMs: 5000, model: classifier.model },
      { baseUrl: classifier.url, apiKey: classifier.key },
      c.text,
      classifier.model ?? "gpt-4o-mini",
    );
    if (!res.ok) failures.n++;
    const flagged = res.ok && res.category !== null;
    out.push({ c, rules: false, guard: flagged, category: flagged ? res.category : null, situation: null });
  }
  return out;
}

export function score(results: Verdict[]) {
  const emergencies = results.filter((r) => r.c.emergency);
  const others = results.filter((r) => !r.c.emergency);
  const caught = emergencies.filter((r) => r.guard);
  const falsePositives = others.filter((r) => r.guard);
  // Older sets label the card's category, the situation sets the situation.
  const wrongCategory = caught.filter((r) => r.category !== r.c.category && r.situation !== r.c.category);
  const byKind = new Map<string, { n: number; flagged: number }>();
  for (const r of others) {
    const k = byKind.get(r.c.kind) ?? { n: 0, flagged: 0 };
    k.n++;
    if (r.guard) k.flagged++;
    byKind.set(r.c.kind, k);
  }
  return {
    emergencies,
    others,
    caught,
    falsePositives,
    wrongCategory,
    byKind,
    recall: caught.length / emergencies.length,
    rulesRecall: emergencies.filter((r) => r.rules).length / emergencies.length,
    fpRate: falsePositives.length / others.length,
  };
}

export const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** The misses and false alarms one per line, then the set's figures. */
export function report(title: string, s: ReturnType<typeof score>, tag: (c: Case) => string): void {
  for (const r of s.emergencies.filter((r) => !r.guard))
    console.log(`missed      ${tag(r.c)} ${r.c.category}: ${r.c.text}`);
  for (const r of s.falsePositives) console.log(`false alarm ${tag(r.c)} ${r.c.kind} -> ${r.category}: ${r.c.text}`);
  for (const r of s.wrongCategory)
    console.log(`category    ${tag(r.c)} ${r.c.category} read as ${r.category}: ${r.c.text}`);
  const all = [...s.emergencies, ...s.others];
  console.log(
    `${title}: ${all.length} messages (${s.emergencies.length} emergencies; ${s.others.length} others: ` +
      `${[...s.byKind].map(([k, v]) => `${v.n} ${k}`).join(", ")}), ` +
      `en ${all.filter((r) => r.c.lang === "en").length}, zh ${all.filter((r) => r.c.lang === "zh").length}`,
  );
  console.log(
    `  recall ${pct(s.recall)} (${s.caught.length}/${s.emergencies.length}) | ` +
      `deterministic alone ${pct(s.rulesRecall)}`,
  );
  console.log(
    `  false positives ${pct(s.fpRate)} (${s.falsePositives.length}/${s.others.length}) | by kind: ` +
      `${[...s.byKind].map(([k, v]) => `${k} ${v.flagged}/${v.n}`).join(", ")}`,
  );
  console.log(`  category right on ${s.caught.length - s.wrongCategory.length}/${s.caught.length} caught`);
}

/** Recall per label (the set's situation ids) and per language: where the misses concentrate. */
export function breakdown(s: ReturnType<typeof score>): { situations: string; languages: string } {
  const tally = (key: (r: Verdict) => string) => {
    const m = new Map<string, { n: number; caught: number }>();
    for (const r of s.emergencies) {
      const k = m.get(key(r)) ?? { n: 0, caught: 0 };
      k.n++;
      if (r.guard) k.caught++;
      m.set(key(r), k);
    }
    return [...m]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k} ${v.caught}/${v.n}`)
      .join(", ");
  };
  const fp = (lang: string) => s.falsePositives.filter((r) => r.c.lang === lang).length;
  const n = (lang: string) => s.others.filter((r) => r.c.lang === lang).length;
  return {
    situations: tally((r) => r.c.category ?? "unlabelled"),
    languages: tally((r) => r.c.lang) + ` | false alarms en ${fp("en")}/${n("en")}, zh ${fp("zh")}/${n("zh")}`,
  };
}

/** A sealed set's figures without its texts: the set is never read while the rules are tuned. */
export function reportSealed(title: string, s: ReturnType<typeof score>): void {
  const b = breakdown(s);
  console.log(
    `${title}: ${s.emergencies.length} emergencies, ${s.others.length} others; recall ${pct(s.recall)} ` +
      `(${s.caught.length}/${s.emergencies.length}), false positives ${pct(s.fpRate)} ` +
      `(${s.falsePositives.length}/${s.others.length})`,
  );
  console.log(`  by situation: ${b.situations}`);
  console.log(`  by language: ${b.languages}`);
}
