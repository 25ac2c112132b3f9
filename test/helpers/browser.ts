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
  // foreign.test: a second site on loopback that no demo site allows (the bridge's origin tests); localhost:
  // the console's passkeys need a domain, not an IP, as their relying party.
  "--host-resolver-rules=MAP foreign.test 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
  // End-to-end pages a test rewrites for its own site are served by Playwright, with no address of their
  // own: Chromium would take them for public pages and block their sockets to the loopback worker.
  "--disable-features=LocalNetworkAccessChecks",
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * Where the console tests save their pictures: the docs' own (docs/console/, committed) only when
 * asked with UPDATE_DOCS=1, so an ordinary test run leaves the checkout clean.
 */
export const CONSOLE_SHOTS = process.env.UPDATE_DOCS ? "docs/console" : "test-results/console";

/** The same for the widget's pictures in the docs (docs/screenshots/: a booked conversation, en and zh-CN). */
export const WIDGET_SHOTS = process.env.UPDATE_DOCS ? "docs/screenshots" : "test-results";
