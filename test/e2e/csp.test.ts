import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchViolations, type ViolationWatch } from "../helpers/csp-watch.ts";
import { newPage, useDemoSite, type TestPage } from "../helpers/e2e.ts";
import { buildHostApp } from "../helpers/host-app.ts";
import { serveStatic, type StaticPage, type StaticServer } from "../helpers/static-server.ts";

/**
 * The widget on strict host sites. Host pages on another origin (a second loopback port)
 * send the policies the "Content-Security-Policy" section of docs/embed.md gives, word for word; in each the
 * launcher is styled and fixed in place, a consultation gives advice cards, a protocol design opens
 * the stage panel, and the browser reports no CSP or Trusted Types violation. On the demo site itself:
 * its pages are checked as the worker serves them, and nothing here changes it.
 */
const demo = useDemoSite();
const NONCE = "cGFybGV5LXN0cmljdC1ob3N0";

/** The worker's origin as the live channel's WebSocket reaches it (`wss://` for `https://`). */
const ws = (w: string) => w.replace(/^http/, "ws");

/** The policies of docs/embed.md, `W` being the worker's origin. */
const POLICY = {
  strict: (w: string) =>
    `default-src 'self'; script-src 'self' ${w}; style-src 'self'; connect-src 'self' ${w} ${ws(w)}`,
  nonce: (w: string) =>
    `default-src 'self'; script-src 'nonce-${NONCE}' 'strict-dynamic'; style-src 'nonce-${NONCE}'; ` +
    `connect-src 'self' ${w} ${ws(w)}`,
  trustedTypes: (w: string) =>
    `default-src 'self'; script-src 'self' ${w}; style-src 'self'; connect-src 'self' ${w} ${ws(w)}; ` +
    `require-trusted-types-for 'script'; trusted-types 'none'`,
  // Browsers without constructable stylesheets link the worker's stylesheet instead.
  oldBrowser: (w: string) =>
    `default-src 'self'; script-src 'self' ${w}; style-src 'self' ${w}; connect-src 'self' ${w} ${ws(w)}`,
  frame: (w: string) => `default-src 'self'; frame-src ${w}; script-src 'self'; style-src 'self'`,
  // The npm package is in the host's own bundle; `hostStyles` allows the host app's own inline <style>.
  npm: (w: string, hostStyles: string) =>
    `default-src 'self'; script-src 'self'; style-src 'self' ${hostStyles}; connect-src 'self' ${w} ${ws(w)}; ` +
    `require-trusted-types-for 'script'; trusted-types 'none'`,
};

/** A tall clinic page (so it can scroll under the launcher) with the script tag. */
const scriptTagPage = (worker: string, agent: string, nonce = "") =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Strict clinic</title></head><body>` +
  `<h1>Riverside Skin Clinic</h1>${"<p>Opening hours, directions and our team.</p>".repeat(80)}` +
  `<script src="${worker}/parley.js"${nonce && ` nonce="${nonce}"`} data-site-key="demo-site-key-0001" ` +
  `data-agent="${agent}" async></script></body></html>`;

const framePage = (worker: string, agent: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner portal</title></head><body>` +
  `<h1>Partner portal</h1><iframe id="chat" title="Chat" width="420" height="640" ` +
  `src="${worker}/embed/${agent}?site=demo-site-key-0001"></iframe></body></html>`;

const csp = (policy: string) => ({ "content-security-policy": policy });

let host: StaticServer;
beforeAll(async () => {
  const w = demo.url;
  const pages: Record<string, StaticPage> = {};
  for (const agent of ["derm-consult", "protocol-designer"]) {
    for (const name of ["strict", "trustedTypes", "oldBrowser"] as const) {
      pages[`/${name}/${agent}`] = { html: scriptTagPage(w, agent), headers: csp(POLICY[name](w)) };
    }
    pages[`/nonce/${agent}`] = { html: scriptTagPage(w, agent, NONCE), headers: csp(POLICY.nonce(w)) };
    pages[`/frame/${agent}`] = { html: framePage(w, agent), headers: csp(POLICY.frame(w)) };
  }
  host = await serveStatic({ pages });
});
afterAll(() => host?.close());

type Find = (sel: string) => Locator;

interface Visit extends TestPage {
  watch: ViolationWatch;
}

/** A fresh page that records violations; `old` takes constructable stylesheets away, as in Safari before 16.4. */
async function visit(old = false): Promise<Visit> {
  const tp = await newPage(demo);
  if (old) {
    await tp.context.addInitScript(() =>
      Object.defineProperty(ShadowRoot.prototype, "adoptedStyleSheets", { value: undefined, configurable: true }),
    );
  }
  return { ...tp, watch: await watchViolations(tp.context, tp.page) };
}

async function expectNoViolations(v: Visit) {
  expect(await v.watch.events()).toEqual([]);
  expect(v.watch.console).toEqual([]);
  expect(v.errors).toEqual([]);
}

/** The launcher: the loader's styles applied (colour, shape, size), fixed at the bottom right as the page scrolls. */
async function expectStyledLauncher(page: Page) {
  const launcher = page.locator("parley-chat button.l");
  await launcher.waitFor();
  const look = () =>
    launcher.evaluate((el) => {
      const s = getComputedStyle(el);
      return [s.position, s.backgroundColor, s.borderRadius];
    });
  await expect.poll(look).toEqual(["fixed", "rgb(47, 111, 115)", "50%"]);
  const before = await launcher.boundingBox();
  expect(before).toEqual({ x: 1280 - 20 - 60, y: 800 - 20 - 60, width: 60, height: 60 });
  await page.mouse.wheel(0, 900);
  await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(0);
  expect(await launcher.boundingBox()).toEqual(before);
}

/** The panel drawn with the widget's own styles: a fixed, rounded box of the documented size. */
async function expectStyledPanel(find: Find) {
  const panel = find(".panel");
  await panel.waitFor();
  const look = await panel.evaluate((el) => {
    const s = getComputedStyle(el);
    return { position: s.position, display: s.display, background: s.backgroundColor };
  });
  expect(look).toEqual({ position: "fixed", display: "flex", background: "rgb(255, 255, 255)" });
  expect(await find(".head").evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(47, 111, 115)");
}

const lastReply = (find: Find) => find(".msg[data-role=assistant] .bubble").last();

async function say(page: Page, find: Find, text: string) {
  await find("textarea").click();
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

/** A consultation: the reply streams in with its two advice cards. */
async function adviceConversation(page: Page, find: Find) {
  await say(page, find, "I have a red itchy rash on my arm");
  await expect.poll(() => find("article.advice").count()).toBe(2);
  await expect.poll(() => lastReply(find).textContent()).toContain("two advice cards");
  await find('[data-streaming="true"]').waitFor({ state: "detached" });
  expect(await find("article.advice .card-title").first().textContent()).toBe("Soothe and protect the skin");
}

/** A protocol design: the question is extracted into the stage panel and its stage completes. */
async function stageConversation(page: Page, find: Find) {
  await say(page, find, "Does a daily emollient prevent eczema flares in children?");
  await expect.poll(() => lastReply(find).textContent()).toContain("research question");
  await find('[data-streaming="true"]').waitFor({ state: "detached" });
  await find('button[data-action="stages"]').click();
  await find(".stage-panel").waitFor();
  const question = find('section[data-stage="question"] [data-field="research_question"]');
  expect(await question.textContent()).toContain("eczema flares");
  await find('section[data-stage="question"] button.complete').click();
  await find('section[data-stage="pico"]').waitFor();
}

/** The script-tag embed under one policy: launcher, advice cards, stage panel, no violation. */
async function scriptTagRun(name: keyof typeof POLICY, old = false) {
  const v = await visit(old);
  const { page } = v;
  const find: Find = (sel) => page.locator(`parley-chat ${sel}`);
  await page.goto(`${host.url}/${name}/derm-consult`);
  await expectStyledLauncher(page);
  await find("button.l").click();
  await expectStyledPanel(find);
  await adviceConversation(page, find);
  await page.screenshot({
    path: `test-results/e2e-csp-${name}${old ? "-old-browser" : ""}.png`,
    animations: "disabled",
  });

  await page.goto(`${host.url}/${name}/protocol-designer`);
  await find("button.l").click();
  await expectStyledPanel(find);
  await stageConversation(page, find);
  await page.screenshot({ path: `test-results/e2e-csp-${name}${old ? "-old-browser" : ""}-stages.png` });
  await expectNoViolations(v);
  return v;
}

describe("on a host page with a strict Content-Security-Policy", () => {
  it("script tag under the strict policy: styled, fixed, advice cards and the stage panel, no violation", async () => {
    const v = await scriptTagRun("strict");
    // The watch is not blind: a style the page's policy refuses, inside the widget's shadow root, is reported.
    await v.page.evaluate(() => {
      const style = document.createElement("style");
      style.textContent = ".l{color:red}";
      document.querySelector("parley-chat")!.shadowRoot!.append(style);
    });
    await expect.poll(() => v.watch.events()).toEqual([expect.stringMatching(/^style-src-elem blocked=inline/)]);
    await v.context.close();
  });

  it("script tag with a nonce and 'strict-dynamic': the widget's code loads by the loader's nonce", async () => {
    const v = await scriptTagRun("nonce");
    await v.context.close();
  });

  it("script tag under require-trusted-types-for 'script' with no policy allowed", async () => {
    const v = await scriptTagRun("trustedTypes");
    // A string given to a script sink is refused and reported: the same watch saw none from the widget.
    const refused = await v.page.evaluate(() => {
      try {
        document.body.insertAdjacentHTML("beforeend", "<b>x</b>");
        return false;
      } catch (e) {
        return e instanceof TypeError;
      }
    });
    expect(refused).toBe(true);
    await expect.poll(() => v.watch.events()).toEqual([expect.stringMatching(/^require-trusted-types-for /)]);
    await v.context.close();
  });

  it("a browser without constructable stylesheets: the nonce goes on the widget's <style>", async () => {
    const v = await visit(true);
    await v.page.goto(`${host.url}/nonce/derm-consult`);
    await expectStyledLauncher(v.page);
    await v.page.locator("parley-chat button.l").click();
    await expectStyledPanel((sel) => v.page.locator(`parley-chat ${sel}`));
    const nonces = await v.page.evaluate(() =>
      [...document.querySelector("parley-chat")!.shadowRoot!.querySelectorAll("style")].map((s) => s.nonce),
    );
    // The loader's, the widget's, and one for each chunk with rules of its own the derm consult has loaded
    // (advice cards, the photo kit: widget/ui/chunk-css.ts); every one carries the host's nonce.
    expect(nonces.length).toBeGreaterThanOrEqual(2);
    expect(nonces.filter((n) => n !== NONCE)).toEqual([]);
    await expectNoViolations(v);
    await v.context.close();
  });

  it("no constructable stylesheets and no nonce: the worker's stylesheet, which style-src allows", async () => {
    const v = await scriptTagRun("oldBrowser", true);
    const links = await v.page.evaluate(() => {
      const root = document.querySelector("parley-chat")!.shadowRoot!;
      return [...root.querySelectorAll("link")].map((l) => new URL(l.href).pathname);
    });
    expect(links).toEqual(["/parley.css", "/parley.css"]);
    await v.context.close();
  });

  it("iframe embed under frame-src: the embed page's own strict policy, Trusted Types included", async () => {
    const v = await visit();
    const { page } = v;
    const find: Find = (sel) => page.frameLocator("#chat").locator(sel);
    await page.goto(`${host.url}/frame/derm-consult`);
    const frameBox = await page.locator("#chat").boundingBox();
    await expectStyledPanel(find);
    // Full frame: the panel fills the iframe.
    const panelBox = await find(".panel").boundingBox();
    expect(panelBox!.width).toBeCloseTo(frameBox!.width - 4, 0);
    await adviceConversation(page, find);
    await page.screenshot({ path: "test-results/e2e-csp-frame.png" });
    const frame = page.frames().find((f) => f.url().includes("/embed/"))!;
    const headers = await (await frame.page().request.get(frame.url())).headers();
    expect(headers["content-security-policy"]).toContain("require-trusted-types-for 'script'; trusted-types 'none'");

    await page.goto(`${host.url}/frame/protocol-designer`);
    await stageConversation(page, find);
    await expectNoViolations(v);
    await v.context.close();
  });

  it("npm package in a host app built with Vite, under a strict policy with Trusted Types", async () => {
    const app = await buildHostApp("vite-host");
    try {
      const hostStyle = readFileSync(join(app.dir, "index.html"), "utf8").match(/<style>([\s\S]*?)<\/style>/)![1];
      const hash = `'sha256-${createHash("sha256").update(hostStyle).digest("base64")}'`;
      const npmHost = await serveStatic({ dir: app.dir, headers: csp(POLICY.npm(demo.url, hash)) });
      const v = await visit();
      const { page } = v;
      const find: Find = (sel) => page.locator(`#chat ${sel}`);
      await page.goto(`${npmHost.url}/?api=${encodeURIComponent(demo.url)}`);
      const launcher = find("button.launcher");
      await launcher.waitFor();
      const look = await launcher.evaluate((el) => [getComputedStyle(el).position, getComputedStyle(el).borderRadius]);
      expect(look).toEqual(["fixed", "50%"]);
      expect(await launcher.boundingBox()).toEqual({ x: 1280 - 20 - 60, y: 800 - 20 - 60, width: 60, height: 60 });
      // The fixture's <parley-chat> element draws its launcher over this one: open by the page's API.
      await page.evaluate(() => (window as unknown as { parley: { open(): void } }).parley.open());
      await find(".panel").waitFor();
      expect(await find(".panel").evaluate((el) => getComputedStyle(el).position)).toBe("fixed");
      await adviceConversation(page, find);
      await page.screenshot({ path: "test-results/e2e-csp-npm.png" });
      await expectNoViolations(v);
      // destroy() takes its stylesheets back out of the shadow root: the core's, and those the chunks this
      // conversation loaded added (advice cards, the photo kit: widget/ui/chunk-css.ts).
      const sheets = await page.evaluate(() => {
        const root = document.getElementById("chat")!.shadowRoot!;
        const before = root.adoptedStyleSheets.length;
        (window as unknown as { parley: { destroy(): void } }).parley.destroy();
        return [before, root.adoptedStyleSheets.length];
      });
      expect(sheets[0]).toBeGreaterThan(1);
      expect(sheets[1]).toBe(0);
      await v.context.close();
      await npmHost.close();
    } finally {
      app.cleanup();
    }
  }, 180_000);

  it("the worker's own demo pages send a strict policy, Trusted Types included, and break none of it", async () => {
    const v = await visit();
    const { page } = v;
    const find: Find = (sel) => page.locator(`parley-chat ${sel}`);
    for (const path of ["/", "/qa.html", "/sales.html", "/protocol.html", "/visit.html"]) {
      const res = await page.goto(demo.url + path);
      const policy = res!.headers()["content-security-policy"];
      expect(policy).toMatch(/^default-src 'self'; script-src 'self'; style-src 'self';.*trusted-types 'none'$/);
      // The page's own styles (a file now): the demo banner shows, styled, for the scripted model.
      const banner = page.locator("#demo-banner");
      await expect.poll(() => banner.evaluate((el) => getComputedStyle(el).display)).toBe("block");
      await find("button.l").click();
      await expectStyledPanel(find);
    }
    // The partner portal: its bridge script is a file, its frame the embed page.
    await page.goto(demo.url + "/portal.html");
    await page.click("#send");
    const chat: Find = (sel) => page.frameLocator("#chat-frame").locator(sel);
    await expect.poll(() => chat("article.advice").count()).toBe(2);
    await expect.poll(() => page.locator("#log").textContent()).toContain("advice");
    await expectNoViolations(v);
    await v.context.close();
  });
});
