/**
 * bench:safety — the emergency guard on a committed, labelled set (safety-set.json): recall on the
 * emergencies, the false-positive rate on the rest (negations, past history, look-alikes, ordinary
 * questions), and the deterministic layer's added latency. Then the same figures on a held-out set
 * (safety-heldout.json) written blind, before its author read the rules, and never tuned on: it says
 * how the rules do on phrasings nobody fitted them to. Then two sets written from the situation list
 * alone: the blind and development sets (their misses printed, so the clinical model was tuned on them)
 * and two sealed sets (figures per situation and language only; their texts are never printed). Figures
 * last; exit 1 when a goal is broken on the main set (held-out figures are reported, not gated: gating
 * invites tuning).
 * With GUARD_CLASSIFIER_URL (an OpenAI-compatible …/v1; GUARD_CLASSIFIER_KIND moderation or chat,
 * GUARD_CLASSIFIER_MODEL, GUARD_CLASSIFIER_KEY) the classifier runs where the rules found nothing, as
 * in the worker; without it the guard is the rules alone.
 */
import { performance } from "node:perf_hooks";
import { checkEmergency } from "../../worker/guard/emergency-guard.ts";
import { percentile } from "../helpers/stats.ts";
import { breakdown, loadSet, pct, report, reportSealed, runSet, score, type Case } from "./safety-score.ts";

const GOALS = { recall: 1, rulesRecall: 0.95, falsePositiveRate: 0.03, p99Ms: 1 };
/** What a held-out set should show, reported against the sealed set and never gated: see below. */
const HELD_OUT_GOALS = { rulesRecall: 0.97, falsePositiveRate: 0.02 };
const RUNS_PER_MESSAGE = 200;

const cases = loadSet("./safety-set.json");
const heldOut = loadSet("./safety-heldout.json");
const blind = loadSet("./safety-blind.json");
const dev = loadSet("./safety-dev.json");
const dev2 = loadSet("./safety-dev2.json");
const dev3 = loadSet("./safety-dev3.json");
const sealed = loadSet("./safety-sealed.json");
const sealed2 = loadSet("./safety-sealed2.json");

// The first Chinese message an isolate reads builds the traditional-character map: timed alone.
const coldStart = performance.now();
checkEmergency("胸口好痛");
const firstChineseMs = performance.now() - coldStart;
// Latency: each message many times after a warm-up, its median; then the median over messages.
for (const c of cases) checkEmergency(c.text);
const perMessage = cases.map((c) => {
  const times: number[] = [];
  for (let i = 0; i < RUNS_PER_MESSAGE; i++) {
    const t0 = performance.now();
    checkEmergency(c.text);
    times.push(performance.now() - t0);
  }
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
});

const url = process.env.GUARD_CLASSIFIER_URL;
const classifier = url
  ? {
      url,
      kind: process.env.GUARD_CLASSIFIER_KIND === "chat" ? ("chat" as const) : ("moderation" as const),
      model: process.env.GUARD_CLASSIFIER_MODEL,
      key: process.env.GUARD_CLASSIFIER_KEY,
    }
  : null;
const failures = { n: 0 };
const results = await runSet(cases, classifier, failures);
const heldOutResults = await runSet(heldOut, classifier, failures);
const blindResults = await runSet(blind, classifier, failures);
const devResults = await runSet(dev, classifier, failures);
const dev2Results = await runSet(dev2, classifier, failures);
const dev3Results = await runSet(dev3, classifier, failures);
const sealedResults = await runSet(sealed, classifier, failures);
const sealed2Results = await runSet(sealed2, classifier, failures);

const main = score(results);
const held = score(heldOutResults);
const sortedTimes = [...perMessage].sort((a, b) => a - b);
const p50 = percentile(sortedTimes, 50);
const p99 = percentile(sortedTimes, 99);

const broken: string[] = [];
if (main.recall < GOALS.recall) broken.push(`recall ${pct(main.recall)} < ${pct(GOALS.recall)}`);
if (main.rulesRecall < GOALS.rulesRecall)
  broken.push(`deterministic recall ${pct(main.rulesRecall)} < ${pct(GOALS.rulesRecall)}`);
if (main.fpRate > GOALS.falsePositiveRate)
  broken.push(`false positives ${pct(main.fpRate)} > ${pct(GOALS.falsePositiveRate)}`);
if (p99 >= GOALS.p99Ms) broken.push(`p99 ${p99.toFixed(3)} ms >= ${GOALS.p99Ms} ms`);

const tag = (c: Case) => `[${c.lang}${c.round ? `, round ${c.round}` : ""}]`;
report("main set", main, tag);
for (const round of [1, 2]) {
  const rs = results.filter((r) => r.c.round === round);
  const e = rs.filter((r) => r.c.emergency);
  const o = rs.filter((r) => !r.c.emergency);
  console.log(
    `  round ${round}: recall ${e.filter((r) => r.guard).length}/${e.length}, ` +
      `false positives ${o.filter((r) => r.guard).length}/${o.length}`,
  );
}
console.log("  (the rules were tuned on both rounds; each set's first run is in docs/safety.md)");
console.log("");
report("held-out set (never tuned on)", held, (c) => `[${c.lang}, held-out]`);
console.log("  (written before its author read the rules, and never tuned on)");
console.log("");
const blindScore = score(blindResults);
report("blind set by situation", blindScore, (c) => `[${c.lang}, blind]`);
const blindBy = breakdown(blindScore);
console.log(`  by situation: ${blindBy.situations}`);
console.log(`  by language: ${blindBy.languages}`);
console.log(
  "  (written from the situation list, and the clinical model tuned on its misses: its figure says little " +
    "about unseen text; its first run is in docs/safety.md)",
);
console.log("");
const devScore = score(devResults);
report("development set", devScore, (c) => `[${c.lang}, dev]`);
const devBy = breakdown(devScore);
console.log(`  by situation: ${devBy.situations}`);
console.log(`  by language: ${devBy.languages}`);
console.log("  (written blind from the situation list for a second round of tuning, then tuned on)");
console.log("");
const dev2Score = score(dev2Results);
report("development set 2", dev2Score, (c) => `[${c.lang}, dev 2]`);
const dev2By = breakdown(dev2Score);
console.log(`  by situation: ${dev2By.situations}`);
console.log(`  by language: ${dev2By.languages}`);
console.log("  (written blind in plain, unclinical words for a third round of tuning, then tuned on)");
console.log("");
const dev3Score = score(dev3Results);
report("development set 3", dev3Score, (c) => `[${c.lang}, dev 3]`);
const dev3By = breakdown(dev3Score);
console.log(`  by situation: ${dev3By.situations}`);
console.log(`  by language: ${dev3By.languages}`);
console.log(
  "  (written blind from the situation list, 30 emergencies a situation, for a fourth round of tuning, " +
    "then tuned on)",
);
console.log("");
const sealedScore = score(sealedResults);
const met = (ok: boolean) => (ok ? "met" : "not met");
reportSealed("sealed set (its texts are never printed)", sealedScore);
console.log("  (never read while tuning: this is the figure that says how the guard does on text nobody fitted it to)");
console.log(
  `  held-out goals: deterministic recall >= ${pct(HELD_OUT_GOALS.rulesRecall)} ` +
    `(${met(sealedScore.rulesRecall >= HELD_OUT_GOALS.rulesRecall)}), false positives <= ` +
    `${pct(HELD_OUT_GOALS.falsePositiveRate)} (${met(sealedScore.fpRate <= HELD_OUT_GOALS.falsePositiveRate)})`,
);
console.log("");
const sealed2Score = score(sealed2Results);
reportSealed("second sealed set (its texts are never printed)", sealed2Score);
console.log("  (written after three rounds of tuning, never read while tuning)");
console.log(
  `  held-out goals: deterministic recall >= ${pct(HELD_OUT_GOALS.rulesRecall)} ` +
    `(${met(sealed2Score.rulesRecall >= HELD_OUT_GOALS.rulesRecall)}), false positives <= ` +
    `${pct(HELD_OUT_GOALS.falsePositiveRate)} (${met(sealed2Score.fpRate <= HELD_OUT_GOALS.falsePositiveRate)})`,
);
console.log("");
console.log(
  "classifier: " +
    (classifier
      ? `${classifier.kind} at ${classifier.url} (${failures.n} failed, rules stood)`
      : "none configured: the guard is the deterministic layer alone"),
);
console.log(`goals on the main set: recall 100 %, deterministic alone >= 95 %, false positives <= 3 %, p99 < 1 ms`);
console.log(
  `deterministic latency per message: p50 ${(p50 * 1000).toFixed(1)} µs, ` +
    `p99 ${(p99 * 1000).toFixed(1)} µs (median of ${RUNS_PER_MESSAGE} runs each)`,
);
console.log(`first Chinese message in a fresh isolate (builds the character map): ${firstChineseMs.toFixed(1)} ms`);
console.log(broken.length ? `FAIL: ${broken.join("; ")}` : "ok");
process.exit(broken.length ? 1 : 0);
