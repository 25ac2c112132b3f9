import { join } from "node:path";
import type { Page, Response } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { dermConsultScript } from "../../worker/demo/index.ts";
import { useSite } from "../helpers/e2e.ts";
import { answered } from "../helpers/e2e-waits.ts";
import { ADMIN_SECRETS, devVars, filesUnder, secretsIn } from "../helpers/secrets.ts";

/**
 * No secret reaches the browser. The run's worker holds secrets fresh for the run
 * (session signing, and the provider's key, which the fake provider insists on), then everything
 * the browser receives — bodies and headers of every response on every demo page, the iframe embed,
 * and a full chat turn with tools and advice cards — is searched for each of them. The built files
 * are searched in test/build/secrets.test.ts; the web search key in test/worker/tools.test.ts (set here,
 * it would send the other files' web searches to Tavily).
 */
const demo = useSite({ script: dermConsultScript });
const ALL = { ...inject("e2e").secrets, ...ADMIN_SECRETS, ...devVars() };
const leaks = (text: string) => secretsIn(text, ALL);

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
  it("is in no response on any served page, the iframe embed, or a full chat turn", async () => {
    const context = await demo.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const { seen, settled } = recordResponses(page);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));

    // Every page of the site, and every file the build put there, as the browser would get it.
    const assets = filesUnder(join("dist", "public")).map(
      (f) => "/" + f.slice(join("dist", "public").length + 1).replaceAll("\\", "/"),
    );
    const pages = ["/", "/qa.html", "/sales.html", "/protocol.html", "/portal.html", "/visit.html"];
    for (const path of new Set([...pages, ...assets.filter((a) => a.endsWith(".html"))])) {
      await page.goto(demo.url + path);
      // The widget loads when the browser is idle; wait for it on the pages that have it.
      await page.waitForLoadState("networkidle");
    }
    await page.goto(`${demo.url}/embed/derm-consult?site=${demo.siteKey}`);
    // Every other file, fetched by the page (each response is recorded like a navigation's).
    const files = ["/v1/health", ...assets.filter((a) => !a.endsWith(".html"))];
    const statuses = await page.evaluate(
      (paths) => Promise.all(paths.map((p) => fetch(p).then((r) => r.status))),
      files,
    );
    expect(Object.fromEntries(files.map((f, i) => [f, statuses[i]]))).toEqual(
      Object.fromEntries(files.map((f) => [f, f === "/_headers" ? 404 : 200])),
    );

    // A full turn on a real (fake) provider: session, streamed completion, knowledge_search (edge
    // tool), the advice cards' events, then a reload that restores the session.
    await page.goto(demo.url + "/");
    await page.locator("parley-chat button.l").click();
    for (const text of ["I have a red itchy rash on my arm", "How should I care for acne-prone skin?"]) {
      await page.locator("parley-chat textarea").fill(text);
      await page.locator("parley-chat textarea").press("Enter");
      await answered(page, text);
    }
    expect(await page.locator("parley-chat article.card").count()).toBe(2);
    await page.reload();
    await page.locator("parley-chat button.l").click();
    await expect.poll(() => page.locator('parley-chat .msg[data-role="user"]').count()).toBe(2);

    // The partner portal drives the iframe embed through a turn too, in a conversation of its own
    // (the embed page shares the worker's origin, so it would otherwise restore the one above).
    await page.evaluate(() => localStorage.clear());
    await page.goto(demo.url + "/portal.html");
    await page.click("#ask");
    await page.frameLocator("#chat-frame").locator(".panel").waitFor();
    await page.click("#send");
    await expect.poll(() => page.frameLocator("#chat-frame").locator("article.card").count()).toBe(2);
    await page.waitForLoadState("networkidle");

    // What the browser keeps: storage and cookies.
    const kept = await page.evaluate(() =>
      JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookies: document.cookie }),
    );
    expect(leaks(kept)).toEqual([]);

    await settled();
    // The provider really was used, with the key, by the worker only.
    const asked = await demo.requests();
    expect(asked.length).toBeGreaterThanOrEqual(4);
    expect(asked.every((r) => r.status === 200)).toBe(true);
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
