import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchBrowser } from "./browser.ts";
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
