import { writeFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { fmt } from "../helpers/stats.ts";
import { printProfile, printTrace, type CpuProfile } from "./chrome-trace.ts";
import { markdownTokens } from "./stream-doc.ts";
import { chromiumCpu, inWidget, openClinic, wall, watchWord } from "./stream-page.ts";
import { startStreamProvider } from "./stream-provider.ts";
import { startBenchWorker, type BenchWorker, type RuntimeKind } from "./worker-runtime.ts";

/**
 * Where a streamed reply's time goes in the page: one reply of PROFILE_TOKENS (4 000) tokens on the
 * clinic's page, as bench:stream plays it, under Chrome's tracing; prints Chromium's CPU over the
 * reply, each thread's, the renderer main thread's by event and by kind of frame, and the tasks
 * between the last word reaching the DOM and its paint (chrome-trace.ts). Env:
 * - PROFILE_JS=1: a sampled JavaScript profile instead, by function, with the start of its source;
 * - PROFILE_OUT=<file>.json: the raw trace too (DevTools' Performance panel opens it);
 * - PROFILE_INVALIDATIONS=1: also record what made style and layout dirty (heavier);
 * - PROFILE_WIDGET=<folder>: the widget's files from another build (a copy of dist/public);
 * - PROFILE_THROTTLE=4: the page's main thread 4 times slower (Chromium's CPU throttling);
 * - PROFILE_CSS=<rules>: added to the widget's shadow root first, to weigh what a style costs;
 * - BENCH_RUNTIME as bench:stream.
 * A trace costs the page time of its own; compare runs with each other, not with bench:stream.
 */
const env = process.env;
const TOKENS = Number(env.PROFILE_TOKENS ?? 4000);
const CATEGORIES = [
  "toplevel",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.timeline.frame",
  "cc",
  "v8.execute",
  "blink",
  ...(env.PROFILE_INVALIDATIONS ? ["disabled-by-default-devtools.timeline.invalidationTracking"] : []),
];

async function main(): Promise<void> {
  const marker = "ENDprofileZ";
  const provider = await startStreamProvider((user) => (user === "profile" ? markdownTokens(TOKENS, marker) : ["ok"]));
  let worker: BenchWorker | undefined;
  let browser: Browser | undefined;
  try {
    const vars = { LLM_BASE_URL: provider.url, LLM_API_KEY: "k", DEMO_MODE: "1" };
    const kind = (env.BENCH_RUNTIME ?? "workerd") as RuntimeKind;
    [worker, browser] = await Promise.all([startBenchWorker(kind, vars, { assets: true }), launchBrowser()]);
    const at = await openClinic(browser, `${worker.url}/`, env.PROFILE_WIDGET);
    const { page, cdp, offset } = at;
    if (env.PROFILE_THROTTLE) await cdp.send("Emulation.setCPUThrottlingRate", { rate: Number(env.PROFILE_THROTTLE) });
    if (env.PROFILE_CSS)
      await page.evaluate((css) => {
        const root = document.querySelector("parley-chat")!.shadowRoot!;
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(css);
        root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
      }, env.PROFILE_CSS);
    await inWidget(page, "textarea").fill("profile");
    const seen = await watchWord(page, marker);
    if (env.PROFILE_JS) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
      await cdp.send("Profiler.start");
    } else await browser.startTracing(page, { categories: CATEGORIES });
    const cpu = await chromiumCpu(browser);
    const sent = wall();
    await inWidget(page, "textarea").press("Enter");
    const [last, s] = await Promise.all([provider.replyDone(sent), seen()]);
    await inWidget(page, "button.send.stop").waitFor({ state: "detached", timeout: 60_000 });
    const after = await chromiumCpu(browser);
    const lag = (t: number) => fmt(t - offset - last, 0);
    console.log(`${TOKENS}-token reply on the clinic's page (${worker.label})`);
    console.log(`lag to the last word: in DOM ${lag(s.dom)} ms, painted ${lag(s.painted)} ms`);
    console.log(
      `Chromium CPU over the reply: renderers ${fmt(after.renderers - cpu.renderers, 0)} ms, ` +
        `all processes ${fmt(after.all - cpu.all, 0)} ms`,
    );
    if (env.PROFILE_JS) printProfile(((await cdp.send("Profiler.stop")) as { profile: CpuProfile }).profile);
    else {
      const raw = (await browser.stopTracing()).toString();
      if (env.PROFILE_OUT) writeFileSync(env.PROFILE_OUT, raw);
      printTrace(raw);
    }
  } finally {
    await browser?.close();
    await worker?.stop();
    await provider.close();
  }
}

await main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
