import { chromium, type Browser } from "playwright-core";

/** Debian's chromium, with the flags that keep it off the network (docs/contributing.md: working offline). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * Where the console tests save their pictures: the docs' own (docs/console/, committed) only when
 * asked with UPDATE_DOCS=1, so an ordinary test run leaves the checkout clean.
 */
export const CONSOLE_SHOTS = process.env.UPDATE_DOCS ? "docs/console" : "test-results/console";
