import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dermConsultScript } from "../../worker/demo/index.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { startFakeUpstream, type FakeUpstream } from "../helpers/fake-upstream.ts";
import { startWranglerDev, type WranglerDev } from "../helpers/wrangler-dev.ts";

/**
 * No secret in any client artifact. The worker runs with every secret it knows set to
 * a fresh random value (and a real provider: a fake upstream that insists on the key), then:
 * every built file under dist/ (the public site and the npm package) and everything the browser
 * receives — bodies and headers of every response on every demo page, the iframe embed, and a
 * full chat turn with tools and advice cards — is searched for each of them.
 */
const token = (prefix: string) => prefix + randomBytes(18).toString("hex");
const SECRETS: Record<string, string> = {
  SESSION_SECRET: token("session-secret-"),
  LLM_API_KEY: token("sk-test-"),
  // Set so the worker holds it; no test turn calls web_search, so nothing is sent to Tavily.
  TAVILY_API_KEY: token("tvly-test-"),
};
/** The demo site's admin key (DEMO_ADMIN_KEY in worker/demo/) and the digest KV holds for it. */
const DEMO_ADMIN_KEY = "demo-admin-key-0001";
const ADMIN_SECRETS: Record<string, string> = {
  "demo admin key": DEMO_ADMIN_KEY,
  "demo admin key SHA-256": createHash("sha256").update(DEMO_ADMIN_KEY).digest("hex"),
};
/** Secrets a developer configured locally for `npm start` (git-ignored), when there are any. */
function devVars(): Record<string, string> {
  if (!existsSync(".dev.vars")) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(".dev.vars", "utf8").split("\n")) {
    const m = /^\s*([A-Z0-9_]*(?:KEY|SECRET|TOKEN)[A-Z0-9_]*)\s*=\s*"?([^"\n]+?)"?\s*$/.exec(line);
    if (m && m[2].length >= 8) out[`.dev.vars ${m[1]}`] = m[2];
  }
  return out;
}
const ALL = { ...SECRETS, ...ADMIN_SECRETS, ...devVars() };

function leaks(text: string): string[] {
  return Object.entries(ALL)
    .filter(([, v]) => text.includes(v))
    .map(([k]) => k);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

let upstream: FakeUpstream;
let dev: WranglerDev;
let browser: Browser;

beforeAll(async () => {
  upstream = await startFakeUpstream({ apiKey: SECRETS.LLM_API_KEY, scripts: { "gpt-4o-mini": dermConsultScript } });
  [dev, browser] = await Promise.all([
    startWranglerDev({ vars: { ...SECRETS, LLM_BASE_URL: upstream.url } }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await dev?.stop();
  await upstream?.close();
});

interface Seen {
  url: string;
  status: number;
  leaks: string[];
}

/** Records, for every response the page (and its frames) receives, which secrets its headers and body hold. */
function recordResponses(page: Page): { seen: Seen[]; settled: () => Promise<void> } {
  const seen: Seen[] = [];
  const pending: Promise<void>[] = [];
  page.on("response", (res: Response) => {
    pending.push(
      (async () => {
        const headers = JSON.stringify(await res.allHeaders());
        let body = "";
        try {
          body = (await res.body()).toString("utf8");
        } catch {
          /* redirects and aborted streams have no body to read */
        }
        seen.push({ url: res.url(), status: res.status(), leaks: leaks(headers + "\n" + body) });
      })(),
    );
  });
  return { seen, settled: async () => void (await Promise.all(pending)) };
}

describe("no secret reaches the browser", () => {
  it("is in no built file under dist/ (public site and npm package)", () => {
    const files = filesUnder("dist");
    expect(files.some((f) => f.endsWith("parley-widget.js"))).toBe(true);
    expect(files.some((f) => f.startsWith(join("dist", "npm")))).toBe(true);
    const found = files.map((f) => ({ f, l: leaks(readFileSync(f, "latin1")) })).filter((x) => x.l.length);
    expect(found).toEqual([]);
  });

  it("is in no response on any served page, the iframe embed, or a full chat turn", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
    const page = await context.newPage();
    const { seen, settled } = recordResponses(page);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));

    // Every page of the site, and every file the build put there, as the browser would get it.
    const assets = filesUnder(join("dist", "public")).map(
      (f) => "/" + f.slice(join("dist", "public").length + 1).replaceAll("\\", "/"),
    );
    const paths = [
      "/",
      "/qa.html",
      "/sales.html",
      "/protocol.html",
      "/portal.html",
      "/visit.html",
      "/embed/derm-consult?site=demo-site-key-0001",
      "/v1/health",
      ...assets,
    ];
    for (const path of paths) {
      await page.goto(dev.url + path);
      // The widget loads when the browser is idle; wait for it on the pages that have it.
      if (path.endsWith(".html") || path === "/") await page.waitForLoadState("networkidle");
    }

    // A full turn on a real (fake) provider: session, streamed completion, knowledge_search (edge
    // tool), the advice cards' events, then a reload that restores the session.
    await page.goto(dev.url + "/");
    await page.locator("parley-chat button.l").click();
    for (const text of ["I have a red itchy rash on my arm", "How should I care for acne-prone skin?"]) {
      await page.locator("parley-chat textarea").fill(text);
      await page.locator("parley-chat textarea").press("Enter");
      await page.locator("parley-chat button.send.stop").waitFor();
      await page.locator("parley-chat button.send.stop").waitFor({ state: "detached", timeout: 30_000 });
    }
    expect(await page.locator("parley-chat article.card").count()).toBe(2);
    await page.reload();
    await page.locator("parley-chat button.l").click();
    await expect.poll(() => page.locator('parley-chat .msg[data-role="user"]').count()).toBe(2);

    // The partner portal drives the iframe embed through a turn too, in a conversation of its own
    // (the embed page shares the worker's origin, so it would otherwise restore the one above).
    await page.evaluate(() => localStorage.clear());
    await page.goto(dev.url + "/portal.html");
    await page.click("#ask");
    await page.frameLocator("#chat-frame").locator(".panel").waitFor();
    await page.click("#send");
    await expect
      .poll(() => page.frameLocator("#chat-frame").locator("article.card").count(), { timeout: 30_000 })
      .toBe(2);
    await page.waitForLoadState("networkidle");

    // What the browser keeps: storage and cookies.
    const kept = await page.evaluate(() =>
      JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookies: document.cookie }),
    );
    expect(leaks(kept)).toEqual([]);

    await settled();
    // The provider really was used, with the key, by the worker only.
    expect(upstream.requests.length).toBeGreaterThanOrEqual(4);
    expect(upstream.requests.every((r) => r.status === 200)).toBe(true);
    const urls = seen.map((s) => s.url);
    for (const p of [
      "/v1/sessions",
      "/v1/chat/completions",
      "/v1/tools/knowledge_search",
      "/parley-widget.js",
      "/parley-frame.js",
      "/embed/derm-consult",
    ]) {
      expect(
        urls.some((u) => u.includes(p)),
        p,
      ).toBe(true);
    }
    expect(seen.length).toBeGreaterThan(40);
    expect(seen.filter((s) => s.leaks.length)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
