import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { fmt, median, percentile } from "../helpers/stats.ts";
import { markdownTokens } from "./stream-doc.ts";
import { floorTurn } from "./stream-floor.ts";
import { chromiumCpu, counters, inWidget, openClinic, wall, watchWord, type ClinicPage } from "./stream-page.ts";
import { startStreamProvider, type StreamProvider } from "./stream-provider.ts";
import { startBenchWorker, type BenchWorker, type RuntimeKind } from "./worker-runtime.ts";

/**
 * A streamed reply's lag to the screen, end to end: a provider on 127.0.0.1 streams N tokens of
 * markdown, one per event 1 ms apart, to the worker (workerd, as bench:proxy runs it, or
 * BENCH_RUNTIME=wrangler-dev), whose session object relays it to the built widget on the clinic's
 * demo page (served by the worker) in headless Chromium. A run's lag is from the provider writing the
 * reply's last word to the page having painted it (stream-page.ts says how that is timed); each run is
 * a fresh page, and the same reply read through the same worker by a plain HTTP client right after it
 * is the floor (what no page can beat). BENCH_RUNS runs (10) of 1 000 and of 4 000 tokens. Then 25
 * turns of a 200-token reply in one conversation: the last turns' script time against the first's (the
 * messages above should cost nothing per chunk).
 *
 * STREAM_AB=<folder>: another build of the widget (a copy of its dist/public) is run beside this one,
 * turn for turn on the same worker, and both are printed: on a busy machine a change is weighed by
 * the ratio in one run, not by figures from two. Run after `npm run build`.
 */
const GOAL = {
  /** The lag (the provider wrote the last word -> the page painted it) at p95, at 1 000 and at 4 000 tokens. */
  lagP95Ms: 100,
  msPerChunk4k: 0.3,
  ratio4kTo1k: 4.5,
  turn25VsTurn1: 1.2,
};
const SIZES = [1000, 4000];
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const TURNS = 25;
const SHORT = 200;
const SITE = { siteKey: "demo-site-key-0001", agentId: "derm-consult" };

const t0 = performance.now();
const log = (msg: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s] ${msg}`);

interface Turn {
  /** The provider wrote the last word -> the word in the widget's DOM, its frame begun, painted (ms). */
  dom: number;
  frame: number;
  lag: number;
  /** The response's last byte at the page (Resource Timing), after the provider's last word (ms). */
  end: number;
  scriptMs: number;
  /** All the page's main-thread work in the turn (wall time): script, style, layout, paint. */
  taskMs: number;
  /** Of it, style and layout. */
  layoutMs: number;
  /** CPU time of Chromium's renderers, and of all its processes, over the turn. */
  rendererCpuMs: number;
  chromiumCpuMs: number;
}

/** What one build of the widget measured. */
interface Side {
  name: string;
  /** The widget's files from this folder (STREAM_AB), or the worker's own (dist/public). */
  dir?: string;
  turns: Map<number, Turn[]>;
}

/** "reply N #K" asks for N tokens ending in a word no other reply has (no marker is another's prefix). */
const ask = (n: number, k: number) => ({ text: `reply ${n} #${k}`, marker: `END${n}x${k}Z` });
const replyOf = (text: string) => {
  const m = /^reply (\d+) #(\d+)$/.exec(text);
  return m ? markdownTokens(Number(m[1]), ask(Number(m[1]), Number(m[2])).marker) : ["ok"];
};

/** One message on an open page, timed to its last word painted; the page's counters around it. */
async function pageTurn(browser: Browser, at: ClinicPage, provider: StreamProvider, n: number, k: number) {
  const { page, cdp, offset } = at;
  const { text, marker } = ask(n, k);
  await inWidget(page, "textarea").fill(text);
  const seen = await watchWord(page, marker);
  const before = await counters(cdp);
  const cpu = await chromiumCpu(browser);
  const sent = wall();
  await inWidget(page, "textarea").press("Enter");
  const [last, s] = await Promise.all([provider.replyDone(sent), seen()]);
  await inWidget(page, "button.send.stop").waitFor({ state: "detached", timeout: 60_000 });
  const after = await counters(cdp);
  const cpuAfter = await chromiumCpu(browser);
  const end = await page.evaluate(() => {
    const entry = performance
      .getEntriesByType("resource")
      .filter((e) => e.name.includes("/chat/completions"))
      .at(-1) as PerformanceResourceTiming | undefined;
    return entry ? performance.timeOrigin + entry.responseEnd : NaN;
  });
  const since = (pageTime: number) => pageTime - offset - last;
  return {
    dom: since(s.dom),
    frame: since(s.frame),
    lag: since(s.painted),
    end: since(end),
    scriptMs: after.script - before.script,
    taskMs: after.task - before.task,
    layoutMs: after.layout - before.layout,
    rendererCpuMs: cpuAfter.renderers - cpu.renderers,
    chromiumCpuMs: cpuAfter.all - cpu.all,
  } satisfies Turn;
}

const p = (values: number[], q: number) =>
  percentile(
    [...values].sort((a, b) => a - b),
    q,
  );
const pair = (values: number[]) => `${fmt(p(values, 50), 0)} / ${fmt(p(values, 95), 0)}`;
const cols = (...v: string[]) => v.map((x, i) => (i ? x.padStart(10) : x.padEnd(24))).join(" ");
const kb = (n: number) => (markdownTokens(n, "END").join("").length / 1024).toFixed(1);

function printSide(side: Side, floors: Map<number, Array<{ word: number; end: number }>>): void {
  console.log(`\n${side.name}: ms after the provider wrote the last word, p50 / p95 of ${RUNS} runs`);
  console.log(cols("", "in DOM", "frame", "painted", "floor", "beyond", "resp. end", "renderer", "Chromium"));
  for (const n of SIZES) {
    const ts = side.turns.get(n)!;
    const fs = floors.get(n)!;
    console.log(
      cols(
        `${n} tokens (${kb(n)} KB)`,
        pair(ts.map((t) => t.dom)),
        pair(ts.map((t) => t.frame)),
        pair(ts.map((t) => t.lag)),
        pair(fs.map((f) => f.word)),
        pair(ts.map((t, i) => t.lag - fs[i].word)),
        pair(ts.map((t) => t.end)),
        fmt(median(ts.map((t) => t.rendererCpuMs)), 0),
        fmt(median(ts.map((t) => t.chromiumCpuMs)), 0),
      ),
    );
  }
}

async function main(): Promise<number> {
  if (!existsSync("dist/public/parley.js")) {
    console.error("bench:stream: dist/public/parley.js is missing — run npm run build first");
    return 1;
  }
  const provider = await startStreamProvider(replyOf);
  let worker: BenchWorker | undefined;
  let browser: Browser | undefined;
  try {
    const vars = { LLM_BASE_URL: provider.url, LLM_API_KEY: "k", DEMO_MODE: "1" };
    const kind = (process.env.BENCH_RUNTIME ?? "workerd") as RuntimeKind;
    [worker, browser] = await Promise.all([startBenchWorker(kind, vars, { assets: true }), launchBrowser()]);
    const clinic = `${worker.url}/`;
    log(`worker: ${worker.label}; the clinic's page at ${clinic}`);
    log(`provider on ${provider.url}: a token per event, 1 ms apart; ${RUNS} runs of ${SIZES.join(" and ")} tokens`);

    const fresh = () => new Map<number, Turn[]>(SIZES.map((n) => [n, []]));
    const sides: Side[] = [{ name: "this build (dist/public)", turns: fresh() }];
    if (process.env.STREAM_AB)
      sides.push({ name: `other (${process.env.STREAM_AB})`, dir: process.env.STREAM_AB, turns: fresh() });
    const floors = new Map<number, Array<{ word: number; end: number }>>(SIZES.map((n) => [n, []]));
    let k = 0;
    let offsetError = 0;
    for (let run = 1; run <= RUNS; run++) {
      for (const n of SIZES) {
        for (const side of sides) {
          const at = await openClinic(browser, clinic, side.dir);
          offsetError = Math.max(offsetError, at.offsetError);
          side.turns.get(n)!.push(await pageTurn(browser, at, provider, n, ++k));
          if (run === 1 && side === sides[0])
            await at.page.screenshot({ path: `test-results/bench-stream-${n}.png` }).catch(() => {});
          await at.page.context().close();
        }
        // The floor right after, on the same worker: the same reply as a plain client reads it.
        const { text, marker } = ask(n, ++k);
        const sent = wall();
        const [f, last] = await Promise.all([
          floorTurn(worker.url, worker.url, SITE, text, marker),
          provider.replyDone(sent),
        ]);
        floors.get(n)!.push({ word: f.word - last, end: f.end - last });
      }
      const lags = sides.map((s) => SIZES.map((n) => fmt(s.turns.get(n)!.at(-1)!.lag, 0)).join(" / ")).join(", other ");
      log(`run ${run}: lag ${lags} ms (${SIZES.join(" / ")} tokens)`);
    }

    const convo: Turn[] = [];
    const at = await openClinic(browser, clinic);
    for (let i = 1; i <= TURNS; i++) convo.push(await pageTurn(browser, at, provider, SHORT, ++k));
    await at.page.context().close();
    log(`${TURNS} turns of ${SHORT} tokens done (page clock set within ${fmt(offsetError, 1)} ms)`);

    console.log(`\n${cols("", "script", "task", "style+lay.", "renderer", "painted")}`);
    convo.forEach((t, i) =>
      console.log(
        cols(
          `${SHORT} tokens, turn ${i + 1}`,
          fmt(t.scriptMs, 0),
          fmt(t.taskMs, 0),
          fmt(t.layoutMs, 0),
          fmt(t.rendererCpuMs, 0),
          fmt(t.lag, 0),
        ),
      ),
    );
    for (const side of sides) printSide(side, floors);
    console.log(
      "(in DOM: a MutationObserver saw the word; frame: the frame that paints it began; painted: that frame's " +
        "paint was done; floor: a plain client read the word through the worker; beyond: painted minus floor, run " +
        "by run; resp. end: the response's end at the page; renderer, Chromium: CPU ms per reply, p50)",
    );
    if (sides.length > 1) {
      const ratio = (f: (t: Turn) => number, q: number) =>
        SIZES.map((n) => fmt(p(sides[0].turns.get(n)!.map(f), q) / p(sides[1].turns.get(n)!.map(f), q))).join(" / ");
      console.log(
        `this build against the other (${SIZES.join(" / ")} tokens): painted p50 ${ratio((t) => t.lag, 50)}x, ` +
          `p95 ${ratio((t) => t.lag, 95)}x; renderer CPU ${ratio((t) => t.rendererCpuMs, 50)}x, ` +
          `Chromium CPU ${ratio((t) => t.chromiumCpuMs, 50)}x`,
      );
    }

    const turns = sides[0].turns;
    const scriptPerChunk = (n: number) => median(turns.get(n)!.map((t) => t.scriptMs)) / n;
    const perChunk = scriptPerChunk(4000);
    const ratio = (perChunk * 4000) / (scriptPerChunk(1000) * 1000);
    // One turn is noisy on a shared machine; the goal is held on the median of three at each end.
    const late = median(convo.slice(-3).map((t) => t.scriptMs)) / median(convo.slice(0, 3).map((t) => t.scriptMs));
    const lagP95 = SIZES.map((n) =>
      p(
        turns.get(n)!.map((t) => t.lag),
        95,
      ),
    );
    const broken: string[] = [];
    SIZES.forEach((n, i) => {
      if (!(lagP95[i] <= GOAL.lagP95Ms))
        broken.push(`lag to the last word painted at ${n} tokens, p95 ${fmt(lagP95[i], 0)} ms > ${GOAL.lagP95Ms}`);
    });
    if (!(perChunk <= GOAL.msPerChunk4k)) {
      broken.push(`script per chunk at 4000 tokens ${fmt(perChunk, 3)} ms > ${GOAL.msPerChunk4k}`);
    }
    if (!(ratio <= GOAL.ratio4kTo1k)) broken.push(`4000 tokens cost ${fmt(ratio)}x 1000 > ${GOAL.ratio4kTo1k}x`);
    if (!(late <= GOAL.turn25VsTurn1)) broken.push(`turns 23-25 cost ${fmt(late)}x turns 1-3 > ${GOAL.turn25VsTurn1}x`);
    if (broken.length) console.log(`\nGOAL BROKEN: ${broken.join("; ")}`);
    console.log(
      `\nlag to the last word painted, p95: ${SIZES.map((n, i) => `${n} tokens ${fmt(lagP95[i], 0)} ms`).join(", ")} ` +
        `(goal ${GOAL.lagP95Ms}) | script/chunk at 4000: ${fmt(perChunk, 3)} ms (${GOAL.msPerChunk4k}) | ` +
        `4000 vs 1000: ${fmt(ratio)}x (${GOAL.ratio4kTo1k}x) | turns 23-25 vs 1-3: ${fmt(late)}x ` +
        `(${GOAL.turn25VsTurn1}x)` +
        (broken.length ? " | FAIL" : " | ok"),
    );
    return broken.length ? 1 : 0;
  } finally {
    await browser?.close();
    await worker?.stop();
    await provider.close();
  }
}

process.exitCode = await main().catch((e) => {
  console.error(e);
  return 1;
});
