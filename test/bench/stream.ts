import { existsSync } from "node:fs";
import type { Browser, CDPSession, Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { fmt, median } from "../helpers/stats.ts";
import { serveStatic, type StaticServer } from "../helpers/static-server.ts";
import { markdownTokens } from "./stream-doc.ts";
import { startStreamProvider, type StreamProvider } from "./stream-provider.ts";
import { startBenchWorker, type BenchWorker, type RuntimeKind } from "./worker-runtime.ts";

/**
 * Streaming cost in the browser, for long replies: the BUILT widget (dist/public, served on a
 * loopback origin by a page with the script tag) talking to the worker in workerd, as bench:proxy runs
 * it (BENCH_RUNTIME=wrangler-dev for `wrangler dev`, whose proxy layer buffers a long stream under
 * load), with a provider on 127.0.0.1 streaming one token per event 1 ms apart. Measures, with
 * Chromium's own counters (CDP Performance.getMetrics ScriptDuration, TaskDuration):
 * - a 1 000 and a 4 000 token reply, each in a fresh conversation: script time per chunk, the ratio of
 *   the two totals (4x the tokens should cost about 4x, not more), and the lag from the provider's last
 *   token to that word on screen;
 * - 25 turns of a 200-token reply in one conversation: the last turns' script time against the first's
 *   (the messages above should cost nothing per chunk).
 * Also printed, to tell where a lag comes from: all main-thread work (task), style and layout, and the
 * part of the lag before the reply's last byte reached the page (arrival, from Resource Timing).
 * Run after `npm run build`. Figures from one run.
 */
const GOAL = { msPerChunk4k: 0.3, ratio4kTo1k: 4.5, lagMs: 100, turn25VsTurn1: 1.2 };
const TURNS = 25;
const SHORT = 200;

const t0 = performance.now();
const log = (msg: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s] ${msg}`);
const wall = () => performance.timeOrigin + performance.now();
const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);

/** Chromium's own counters (seconds) in ms: script, and all main-thread tasks (script, style, layout, paint). */
async function counters(cdp: CDPSession): Promise<{ script: number; task: number; layout: number }> {
  const { metrics } = await cdp.send("Performance.getMetrics");
  const ms = (name: string) => (metrics.find((m) => m.name === name)?.value ?? NaN) * 1000;
  const layout = ms("LayoutDuration") + ms("RecalcStyleDuration");
  return { script: ms("ScriptDuration"), task: ms("TaskDuration"), layout };
}

/** The clinic page's embed, on its own loopback origin (the demo site allows loopback origins). */
const embedPage = (api: string) => `<!doctype html><html lang="en"><head><title>bench:stream</title></head><body>
<script src="/parley.js" data-site-key="demo-site-key-0001" data-agent="derm-consult" data-api="${api}" async></script>
</body></html>`;

async function openPanel(browser: Browser, url: string): Promise<{ page: Page; cdp: CDPSession }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error(`page error: ${e}`));
  await page.goto(url);
  await q(page, "button.l").click();
  await q(page, ".panel textarea").waitFor();
  // The greeting rendered by the markdown chunk (not the plain fallback) and the session created.
  await page.waitForLoadState("networkidle");
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  return { page, cdp };
}

interface Turn {
  tokens: number;
  scriptMs: number;
  /** All the page's main-thread work in the turn: script, style, layout, paint. */
  taskMs: number;
  /** Of it, style and layout. */
  layoutMs: number;
  lagMs: number;
  /** Of the lag, the part before the reply's last byte reached the page (provider -> worker -> browser). */
  arrivalMs: number;
}

/** Sends `text`, waits for the reply's marker word on screen and the turn's end; script time of the whole turn. */
async function turn(
  page: Page,
  cdp: CDPSession,
  provider: StreamProvider,
  text: string,
  marker: string,
  tokens: number,
): Promise<Turn> {
  await q(page, "textarea").fill(text);
  // Watched in the page from before the message is sent, once a frame, so the time the word shows is
  // the page's own, not when this process got round to asking. The check reads only the reply's last
  // block (cheap), but it is script too: it is in the figures. It also watches for an error: a second
  // watcher per turn (a locator's waitFor) would keep polling every frame after its turn until its
  // timeout, and 25 turns of them cost the page more script than the replies (the late turns measured
  // the bench's own watchers, not the widget).
  const seen = page.waitForFunction(
    (word) => {
      const root = document.querySelector("parley-chat")?.shadowRoot;
      const error = root?.querySelector(".error");
      if (error) return { error: error.textContent ?? "" };
      const mds = root?.querySelector(".list")?.lastElementChild?.querySelectorAll(".md");
      const text = mds?.[mds.length - 1]?.lastElementChild?.textContent;
      return text?.includes(word) ? { at: performance.timeOrigin + performance.now() } : 0;
    },
    marker,
    { polling: "raf", timeout: 300_000 },
  );
  const shown = seen
    .catch(async (e) => {
      const tail = await q(page, ".msg[data-role=assistant] .bubble").last().textContent();
      await page.screenshot({ path: "test-results/bench-stream-timeout.png" });
      throw new Error(`${marker} not on screen; the reply ends: ${JSON.stringify(tail?.slice(-300))}`, { cause: e });
    })
    .then(async (h) => {
      const v = (await h.jsonValue()) as { at: number } | { error: string };
      if ("error" in v) throw new Error(`the widget shows an error: ${v.error}`);
      return v.at;
    });
  shown.catch(() => {}); // awaited below; until then a rejection is not unhandled
  const before = await counters(cdp);
  const sent = wall();
  await q(page, "textarea").press("Enter");
  // An error on screen rejects `shown` at once, without waiting for a reply that never comes.
  const [lastToken, seenAt] = await Promise.all([provider.replyDone(sent), shown]);
  await q(page, "button.send.stop").waitFor({ state: "detached", timeout: 60_000 });
  const after = await counters(cdp);
  const arrived = await page.evaluate(() => {
    const entry = performance
      .getEntriesByType("resource")
      .filter((e) => e.name.includes("/chat/completions"))
      .at(-1);
    return entry ? performance.timeOrigin + (entry as PerformanceResourceTiming).responseEnd : NaN;
  });
  return {
    tokens,
    scriptMs: after.script - before.script,
    taskMs: after.task - before.task,
    layoutMs: after.layout - before.layout,
    lagMs: seenAt - lastToken,
    arrivalMs: arrived - lastToken,
  };
}

async function main(): Promise<number> {
  if (!existsSync("dist/public/parley.js")) {
    console.error("bench:stream: dist/public/parley.js is missing — run npm run build first");
    return 1;
  }
  // "reply N #K": N tokens ending in the marker ENDNnK, unique per turn, so an earlier reply never matches.
  const marker = (text: string) => text.replace(/^reply (\d+)(?: #(\d+))?$/, (_, n: string, k = "0") => `END${n}n${k}`);
  const provider = await startStreamProvider((user) => {
    const n = Number(/^reply (\d+)/.exec(user)?.[1]);
    return n ? markdownTokens(n, marker(user)) : ["ok"];
  });
  let worker: BenchWorker | undefined;
  let site: StaticServer | undefined;
  let browser: Browser | undefined;
  try {
    const vars = { LLM_BASE_URL: provider.url, LLM_API_KEY: "k", DEMO_MODE: "1" };
    const kind = (process.env.BENCH_RUNTIME ?? "workerd") as RuntimeKind;
    [worker, browser] = await Promise.all([startBenchWorker(kind, vars), launchBrowser()]);
    site = await serveStatic({ dir: "dist/public", pages: { "/bench.html": embedPage(worker.url) } });
    log(`worker: ${worker.label}; widget from ${site.url}`);
    log(`provider on ${provider.url}: a token per event, 1 ms apart`);
    const long: Turn[] = [];
    for (const n of [1000, 4000]) {
      const { page, cdp } = await openPanel(browser, `${site.url}/bench.html`);
      long.push(await turn(page, cdp, provider, `reply ${n}`, marker(`reply ${n}`), n));
      log(`${n}-token reply done`);
      await page.screenshot({ path: `test-results/bench-stream-${n}.png` });
      await page.context().close();
    }
    const { page, cdp } = await openPanel(browser, `${site.url}/bench.html`);
    const convo: Turn[] = [];
    for (let i = 1; i <= TURNS; i++) {
      convo.push(await turn(page, cdp, provider, `reply ${SHORT} #${i}`, marker(`reply ${SHORT} #${i}`), SHORT));
    }
    await page.context().close();
    log(`${TURNS} turns done`);

    const kb = (n: number) => (markdownTokens(n, "END").join("").length / 1024).toFixed(1);
    const cols = (...v: string[]) => v.map((x, i) => (i ? x.padStart(10) : x.padEnd(30))).join(" ");
    const row = (name: string, t: Turn) =>
      cols(
        name,
        fmt(t.scriptMs, 0),
        fmt(t.scriptMs / t.tokens, 3),
        fmt(t.taskMs, 0),
        fmt(t.layoutMs, 0),
        fmt(t.lagMs, 0),
        fmt(t.arrivalMs, 0),
      );
    console.log(cols("reply", "script ms", "ms/chunk", "task ms", "style+lay.", "lag ms", "arrival"));
    for (const t of long) console.log(row(`${t.tokens} tokens (${kb(t.tokens)} KB)`, t));
    convo.forEach((t, i) => console.log(row(`${SHORT} tokens at turn ${i + 1}`, t)));

    const [k1, k4] = long;
    const perChunk = k4.scriptMs / k4.tokens;
    const ratio = k4.scriptMs / k1.scriptMs;
    const lag = Math.max(...long.map((t) => t.lagMs));
    const single = convo[TURNS - 1].scriptMs / convo[0].scriptMs;
    // One turn is noisy on a shared machine; the goal is held on the median of three at each end.
    const late = median(convo.slice(-3).map((t) => t.scriptMs)) / median(convo.slice(0, 3).map((t) => t.scriptMs));
    const broken: string[] = [];
    if (!(perChunk <= GOAL.msPerChunk4k)) {
      broken.push(`script per chunk at 4000 tokens ${fmt(perChunk, 3)} ms > ${GOAL.msPerChunk4k}`);
    }
    if (!(ratio <= GOAL.ratio4kTo1k)) broken.push(`4000 tokens cost ${fmt(ratio)}x 1000 > ${GOAL.ratio4kTo1k}x`);
    if (!(lag <= GOAL.lagMs)) broken.push(`lag to the last word ${fmt(lag, 0)} ms > ${GOAL.lagMs}`);
    if (!(late <= GOAL.turn25VsTurn1)) broken.push(`turns 23-25 cost ${fmt(late)}x turns 1-3 > ${GOAL.turn25VsTurn1}x`);
    if (broken.length) console.log(`GOAL BROKEN: ${broken.join("; ")}`);
    console.log(
      `script/chunk 1000: ${fmt(k1.scriptMs / k1.tokens, 3)} ms, ` +
        `4000: ${fmt(perChunk, 3)} ms (goal ${GOAL.msPerChunk4k}) | ` +
        `4000 vs 1000: ${fmt(ratio)}x (${GOAL.ratio4kTo1k}x) | ` +
        `lag to last word: ${fmt(k1.lagMs, 0)} / ${fmt(k4.lagMs, 0)} ms (${GOAL.lagMs}) | ` +
        `${SHORT}-token reply, turn ${TURNS} vs 1: ${fmt(single)}x; ` +
        `turns 23-25 vs 1-3: ${fmt(late)}x (${GOAL.turn25VsTurn1}x)` +
        (broken.length ? " | FAIL" : " | ok"),
    );
    return broken.length ? 1 : 0;
  } finally {
    await browser?.close();
    await site?.close();
    await worker?.stop();
    await provider.close();
  }
}

process.exitCode = await main().catch((e) => {
  console.error(e);
  return 1;
});
