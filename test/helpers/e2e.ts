import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchBrowser } from "./browser.ts";
import { startFakeUpstream, type FakeUpstream } from "./fake-upstream.ts";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

export interface Demo {
  dev: WranglerDev;
  browser: Browser;
}

/**
 * The end-to-end setup every browser test shares: the built widget and demo site served by a local
 * `wrangler dev` (fresh state) and headless Chromium, started before the file's tests, stopped after.
 */
export function useDemo(opts: Parameters<typeof startWranglerDev>[0] = {}): Demo {
  const demo = {} as Demo;
  beforeAll(async () => {
    [demo.dev, demo.browser] = await Promise.all([startWranglerDev(opts), launchBrowser()]);
    mkdirSync("test-results", { recursive: true });
  });
  afterAll(async () => {
    await demo.browser?.close();
    await demo.dev?.stop();
  });
  return demo;
}

export interface UpstreamDemo extends Demo {
  upstream: FakeUpstream;
}

/**
 * The browser setup with a fake provider in front: the fake upstream started first, the worker's
 * LLM pointed at it; all three stopped after the file's tests.
 */
export function useUpstreamDemo(upstreamOpts: Parameters<typeof startFakeUpstream>[0]): UpstreamDemo {
  const demo = {} as UpstreamDemo;
  beforeAll(async () => {
    demo.upstream = await startFakeUpstream(upstreamOpts);
    [demo.dev, demo.browser] = await Promise.all([
      startWranglerDev({ vars: { LLM_BASE_URL: demo.upstream.url, LLM_API_KEY: "k" } }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await demo.browser?.close();
    await demo.dev?.stop();
    await demo.upstream?.close();
  });
  return demo;
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors of the page: a test ends by expecting none. */
  errors: string[];
}

/** A fresh browser context and page (desktop size, English unless told otherwise) that records page errors. */
export async function newPage(browser: Browser, opts: Parameters<Browser["newContext"]>[0] = {}): Promise<TestPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US", ...opts });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  return { context, page, errors };
}
