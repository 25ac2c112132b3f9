/**
 * bench:redact — the trace redaction (worker/privacy) on labelled en and zh lines: per type (e-mail,
 * phone, identity and insurance numbers, birth dates, street addresses), the labelled details caught
 * and the false redactions (text redacted that is none of them: order numbers, prices, dates that are
 * not birth dates, version numbers), and the time a line takes. Three sets: the development set (gated:
 * the detectors were written with it in view), the held-out set (written with it, before the
 * detectors) and the fresh set (written after them, in phrasings unlike the others). Figures last;
 * exit 1 when a budget is broken on the development set.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { redactText } from "../../worker/privacy/redact-text.ts";
import { PII_TYPES } from "../../worker/privacy/pii-types.ts";
import { percentile } from "../helpers/stats.ts";
import { scoreSet, type RedactionCase, type SetScore } from "../helpers/redaction-score.ts";

/**
 * Every type: recall at least 95 %, at most one false redaction; a line redacted in under 0.2 ms at p99,
 * and a 4000-character text built to make patterns backtrack (the longest a trace step's text gets) in 5 ms.
 */
const BUDGET = { recall: 0.95, falseRedactions: 1, p99Ms: 0.2, longMs: 5 };
const RUNS_PER_LINE = 200;

const load = (name: string): RedactionCase[] =>
  (JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8")) as { cases: RedactionCase[] })
    .cases;
const dev = load("redaction-dev.json");
const heldOut = load("redaction-heldout.json");
const fresh = load("redaction-fresh.json");

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : "n/a");

function report(title: string, cases: RedactionCase[], s: SetScore): void {
  const zh = cases.filter((c) => c.lang === "zh").length;
  console.log(`${title}: ${cases.length} lines (${cases.length - zh} en, ${zh} zh)`);
  for (const line of s.misses) console.log(`  missed ${line}`);
  for (const line of s.falses) console.log(`  false ${line}`);
}

function figures(title: string, s: SetScore): void {
  console.log(title);
  for (const t of PII_TYPES) {
    const r = s.byType[t];
    const typed = r.otherType ? ` (+${r.otherType} removed under another type)` : "";
    console.log(
      `  ${t.padEnd(10)} recall ${r.caught}/${r.labelled} ${pct(r.caught, r.labelled).padStart(7)}${typed}, ` +
        `false redactions ${r.falseRedactions}`,
    );
  }
}

const scores = { dev: scoreSet(dev), heldOut: scoreSet(heldOut), fresh: scoreSet(fresh) };
report("development set", dev, scores.dev);
report("held-out set", heldOut, scores.heldOut);
console.log(
  "  (first run, before any change for it: 20/20 caught, but an Australian address's postcode stayed " +
    "(a state's letters were read as part of the town); fixed, so this set has now been tuned on once)",
);
report("fresh set", fresh, scores.fresh);
console.log(
  "  (first run: 19/22 caught, 0 false; two misses were general faults, fixed: an apostrophe in an e-mail's " +
    "name, a Beijing compound number (10号院); a French street (Rue de Rivoli) stays a known miss)",
);

// Time per line: each line many times after a warm-up, its median; then the percentiles over lines.
const lines = [...dev, ...heldOut, ...fresh].map((c) => c.text);
for (const l of lines) redactText(l);
const perLine = lines
  .map((l) => {
    const times: number[] = [];
    for (let i = 0; i < RUNS_PER_LINE; i++) {
      const t0 = performance.now();
      redactText(l);
      times.push(performance.now() - t0);
    }
    return percentile(
      times.sort((a, b) => a - b),
      50,
    );
  })
  .sort((a, b) => a - b);
const p50 = percentile(perLine, 50);
const p99 = percentile(perLine, 99);

/** Texts of 4000 characters that would cost a pattern with nested repetition quadratic time. */
const LONG = {
  "numbers and spaces": "1 2 ".repeat(1000),
  "digits then a letter": `${"7".repeat(3999)}x`,
  "Chinese place words": "市区县路街道".repeat(667).slice(0, 4000),
  "house numbers and names": "12 Main Road 34 Elm ".repeat(200),
  "a Chinese message": "我最近脸上长了很多痘痘，医生说是湿疹，想问问怎么护理，".repeat(150).slice(0, 4000),
};
const longMs = Object.entries(LONG).map(([name, text]) => {
  for (let i = 0; i < 3; i++) redactText(text);
  const times: number[] = [];
  for (let i = 0; i < 21; i++) {
    const t0 = performance.now();
    redactText(text);
    times.push(performance.now() - t0);
  }
  return {
    name,
    ms: percentile(
      times.sort((a, b) => a - b),
      50,
    ),
  };
});
const slowest = longMs.reduce((a, b) => (b.ms > a.ms ? b : a));

const broken: string[] = [];
for (const t of PII_TYPES) {
  const r = scores.dev.byType[t];
  if (r.labelled && r.caught / r.labelled < BUDGET.recall)
    broken.push(`${t} recall ${pct(r.caught, r.labelled)} < ${pct(BUDGET.recall, 1)}`);
  if (r.falseRedactions > BUDGET.falseRedactions)
    broken.push(`${t} false redactions ${r.falseRedactions} > ${BUDGET.falseRedactions}`);
}
if (p99 >= BUDGET.p99Ms) broken.push(`p99 ${p99.toFixed(3)} ms >= ${BUDGET.p99Ms} ms`);
if (slowest.ms >= BUDGET.longMs)
  broken.push(`a long text (${slowest.name}) took ${slowest.ms.toFixed(2)} ms >= ${BUDGET.longMs} ms`);

console.log("");
figures("development set (gated)", scores.dev);
figures("held-out set", scores.heldOut);
figures("fresh set", scores.fresh);
console.log(
  `budget on the development set: recall >= ${pct(BUDGET.recall, 1)} and at most ` +
    `${BUDGET.falseRedactions} false redaction per type; p99 < ${BUDGET.p99Ms} ms a line, < ${BUDGET.longMs} ms ` +
    "a 4000-character text",
);
console.log(
  `time per line: p50 ${(p50 * 1000).toFixed(1)} µs, p99 ${(p99 * 1000).toFixed(1)} µs ` +
    `(median of ${RUNS_PER_LINE} runs each, ${lines.length} lines)`,
);
console.log(
  `4000-character texts (median of 21 runs): ${longMs.map((l) => `${l.name} ${l.ms.toFixed(2)} ms`).join(", ")}`,
);
console.log(broken.length ? `FAIL: ${broken.join("; ")}` : "ok");
process.exit(broken.length ? 1 : 0);
