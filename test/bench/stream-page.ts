import type { Browser, CDPSession, Page } from "playwright-core";

/**
 * bench:stream's view of the page: the clinic's page (served by the worker, the widget from the same
 * origin), a watcher for a reply's last word that times when it is painted, and the page's clock set
 * against this process's, so a time in the page and the provider's last write compare.
 */

/** performance.timeOrigin + now(): comparable across processes once their offset is known. */
export const wall = () => performance.timeOrigin + performance.now();

export const inWidget = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);

export interface ClinicPage {
  page: Page;
  cdp: CDPSession;
  /** The page's clock minus this process's (ms). */
  offset: number;
  /** Half the best round trip the offset was read with: its error at most. */
  offsetError: number;
}

/**
 * The page's clock against this process's, Cristian's way: the page's time read in one round trip is
 * taken to be this process's at the trip's middle; of several trips the shortest is the most exact.
 */
async function clockOffset(page: Page): Promise<{ offset: number; error: number }> {
  let best = { offset: 0, error: Infinity };
  for (let i = 0; i < 15; i++) {
    const sent = wall();
    const there = await page.evaluate(() => performance.timeOrigin + performance.now());
    const back = wall();
    if ((back - sent) / 2 < best.error) best = { offset: there - (sent + back) / 2, error: (back - sent) / 2 };
  }
  return best;
}

/**
 * The clinic page in a fresh context, the panel open and its session made, Chromium's counters on.
 * `widgetDir`: the widget's files (parley*.js, .css) from another build, to weigh two in one run.
 */
export async function openClinic(browser: Browser, url: string, widgetDir?: string): Promise<ClinicPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  if (widgetDir)
    await context.route(/\/parley[^/]*\.(js|css)$/, (route) =>
      route.fulfill({ path: `${widgetDir}/${new URL(route.request().url()).pathname.split("/").pop()}` }),
    );
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error(`page error: ${e}`));
  await page.goto(url);
  await inWidget(page, "button.l").click();
  await inWidget(page, ".panel textarea").waitFor();
  // The greeting drawn by the markdown chunk (not the plain fallback) and the session made.
  await page.waitForLoadState("networkidle");
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  const { offset, error } = await clockOffset(page);
  return { page, cdp, offset, offsetError: error };
}

/** When a word reached the page, in the page's clock (ms, performance.timeOrigin + now()). */
export interface Seen {
  /** A MutationObserver saw the word in the widget's DOM (a microtask after the change). */
  dom: number;
  /** The frame that paints it began (rAF). */
  frame: number;
  /** That frame's rendering was done: a task posted from its rAF callback runs after its paint. */
  painted: number;
}

/**
 * Watches the widget for `marker`, from before the message that asks for it is sent; answers a promise
 * that resolves when the word is painted, or rejects when the widget shows an error. The watcher is a
 * MutationObserver on the widget's shadow root: it runs once per batch of changes (not every frame
 * while nothing changes) and reads only the text of what changed, so its own cost is small next to
 * the renderer's.
 *
 * "Painted": a frame runs its rAF callbacks, then style, layout and paint, in one task; a message
 * posted from a rAF callback is handled after that task, so its time is when the main thread has
 * painted the frame that shows the word (the compositor puts it on screen a few ms later at most). A
 * word drawn inside a frame's rAF callbacks (the widget draws a streaming reply there) is painted by
 * that frame, but the rAF asked for then is the next frame's: such a time is late by one frame. A
 * PerformanceObserver cannot tell it: element timing reports only an element's first paint and none
 * in a shadow root, and paint entries only the page's first paints.
 */
export async function watchWord(page: Page, marker: string): Promise<() => Promise<Seen>> {
  await page.evaluate((word) => {
    const root = document.querySelector("parley-chat")?.shadowRoot;
    if (!root) throw new Error("no widget on the page");
    (window as unknown as { benchSeen: Promise<Seen> }).benchSeen = new Promise<Seen>((resolve, reject) => {
      const observer = new MutationObserver((records) => {
        const error = root.querySelector(".error");
        if (error) {
          observer.disconnect();
          return reject(new Error(`the widget shows an error: ${error.textContent}`));
        }
        const found = records.some((r) =>
          (r.type === "characterData" ? [r.target] : [...r.addedNodes]).some((n) => n.textContent?.includes(word)),
        );
        if (!found) return;
        observer.disconnect();
        const dom = performance.timeOrigin + performance.now();
        // Marks in a trace of the page (stream-trace.ts); nothing without one.
        console.timeStamp("bench: in DOM");
        requestAnimationFrame(() => {
          const frame = performance.timeOrigin + performance.now();
          console.timeStamp("bench: frame");
          const channel = new MessageChannel();
          channel.port1.onmessage = () => {
            console.timeStamp("bench: painted");
            resolve({ dom, frame, painted: performance.timeOrigin + performance.now() });
          };
          channel.port2.postMessage(0);
        });
      });
      observer.observe(root, { subtree: true, childList: true, characterData: true });
    });
  }, marker);
  return () => page.evaluate(() => (window as unknown as { benchSeen: Promise<Seen> }).benchSeen);
}

/**
 * CPU time (ms) Chromium's processes have used: its renderers (the page's main thread, compositor and
 * raster threads) and all of them (with the GPU process, which composites the frames, and the
 * browser's). With one page at work, the difference across a reply is that reply's cost, and CPU
 * time, unlike a task's wall time, does not grow when other work on the machine takes the cores.
 */
export async function chromiumCpu(browser: Browser): Promise<{ renderers: number; all: number }> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await cdp.send("SystemInfo.getProcessInfo" as never)) as {
      processInfo: Array<{ type: string; cpuTime: number }>;
    };
    const sum = (ps: typeof processInfo) => ps.reduce((n, p) => n + p.cpuTime * 1000, 0);
    return { renderers: sum(processInfo.filter((p) => p.type === "renderer")), all: sum(processInfo) };
  } finally {
    await cdp.detach();
  }
}

/** Chromium's own counters (seconds) in ms: script, and all main-thread tasks (script, style, layout, paint). */
export async function counters(cdp: CDPSession): Promise<{ script: number; task: number; layout: number }> {
  const { metrics } = await cdp.send("Performance.getMetrics");
  const ms = (name: string) => (metrics.find((m) => m.name === name)?.value ?? NaN) * 1000;
  const layout = ms("LayoutDuration") + ms("RecalcStyleDuration");
  return { script: ms("ScriptDuration"), task: ms("TaskDuration"), layout };
}
