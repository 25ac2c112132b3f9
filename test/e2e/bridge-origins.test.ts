import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static-server.ts";
import { startWranglerDev, type WranglerDev } from "../helpers/wrangler-dev.ts";

/**
 * The iframe embed's postMessage bridge checks origins both ways, seen from the frame's
 * side in Chromium: it posts only to its verified parent's origin (never "*"), obeys only its parent
 * window, and a page of an origin the site does not allow gets nothing from it, framed or not.
 * `foreign.test` resolves to 127.0.0.1 only in this browser: a real second site, not on the demo
 * site's allowlist (loopback addresses only).
 */
let dev: WranglerDev;
let browser: Browser;
let foreign: StaticServer;

beforeAll(async () => {
  const args = CHROMIUM_ARGS.map((a) =>
    a.startsWith("--host-resolver-rules=")
      ? "--host-resolver-rules=MAP foreign.test 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
      : a,
  );
  [dev, browser] = await Promise.all([startWranglerDev(), chromium.launch({ executablePath: CHROMIUM_PATH, args })]);
  foreign = await serveStatic({ pages: { "/": "<!doctype html><title>foreign</title><p>another site</p>" } });
});

afterAll(async () => {
  await browser?.close();
  await dev?.stop();
  await foreign?.close();
});

const frameEvents = (page: Page) =>
  page.evaluate(() => ((window as any).__events ?? []).map((e: any) => e.event) as string[]);

describe("iframe bridge origins, from the frame's side", () => {
  it("posts events only to the parent's origin, never '*', and obeys no sibling of the same origin", async () => {
    // bypassCSP: the sibling frame below is an inline srcdoc, which the portal's own CSP would refuse.
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: "en-US",
      bypassCSP: true,
    });
    // The portal and the embed page share an origin here, so the embed page can wrap the function
    // its `parent.postMessage` resolves to with one of its own realm (the message's source stays
    // the frame) and record the target origin of every call.
    await context.addInitScript(() => {
      if (window === window.top || !location.pathname.startsWith("/embed/")) return;
      const w = window as any;
      const parentWin = window.parent as any;
      const original = parentWin.postMessage;
      w.__posts = [];
      parentWin.postMessage = function (msg: unknown, target: unknown, transfer?: Transferable[]) {
        w.__posts.push({
          target: typeof target === "string" ? target : ((target as { targetOrigin?: string })?.targetOrigin ?? "/"),
          event: (msg as { event?: string })?.event,
        });
        return original.call(parentWin, msg, target, transfer ?? []);
      };
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(dev.url + "/portal.html");
    await expect.poll(() => frameEvents(page)).toContain("ready");
    await page.click("#send");
    const chat = page.frameLocator("#chat-frame");
    await expect
      .poll(async () => (await frameEvents(page)).filter((e) => e === "message").length, { timeout: 30_000 })
      .toBe(2);

    const embedFrame = page.frames().find((f) => f.url().includes("/embed/"))!;
    const posts: Array<{ target: string; event?: string }> = await embedFrame.evaluate(() => (window as any).__posts);
    const events = posts.filter((p) => p.event);
    expect(events.map((p) => p.event)).toEqual(expect.arrayContaining(["ready", "message", "advice"]));
    expect(new Set(events.map((p) => p.target))).toEqual(new Set([dev.url]));

    // A sibling frame of the same origin as the portal (an allowed origin, but not the parent)
    // posts commands to the chat frame: not obeyed.
    await page.evaluate(() => {
      const sib = document.createElement("iframe");
      sib.srcdoc =
        `<script>
        const chat = parent.document.getElementById("chat-frame").contentWindow;
        for (const cmd of ["hello", "send", "identity", "close", "theme"]) ` +
        `chat.postMessage({ parley: 1, cmd, value: "dark" }, "*");
      <\/script>`;
      document.body.append(sib);
    });
    await page.waitForTimeout(800);
    expect(await chat.locator('.msg[data-role="user"]').count()).toBe(1);
    expect(await chat.locator(".panel").count()).toBe(1);
    expect(await chat.locator(".root").getAttribute("data-theme")).not.toBe("dark");
    // Nothing more went anywhere but the portal's origin.
    const after: Array<{ target: string; event?: string }> = await embedFrame.evaluate(() => (window as any).__posts);
    expect(after.length).toBeGreaterThanOrEqual(posts.length);
    expect(after.filter((p) => p.target !== dev.url)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("gives a page of a foreign origin nothing: not framed, and a popup of it obeys and tells nothing", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
    const page = await context.newPage();
    const origin = foreign.url.replace("127.0.0.1", "foreign.test");
    const embed = `${dev.url}/embed/derm-consult?site=demo-site-key-0001`;
    await page.goto(origin + "/");
    expect(await page.evaluate(() => location.origin)).toBe(origin);

    // Framed by the foreign site: the browser refuses (frame-ancestors), so no frame script runs.
    const refused: string[] = [];
    page.on("console", (m) => /frame-ancestors|Refused to frame/i.test(m.text()) && refused.push(m.text()));
    await page.evaluate((src) => {
      const f = document.createElement("iframe");
      f.id = "framed";
      f.src = src;
      document.body.append(f);
    }, embed);
    await expect.poll(() => refused.length, { timeout: 10_000 }).toBeGreaterThan(0);

    // Opened as a popup (no frame-ancestors there): commands from the foreign opener are ignored,
    // and the page posts nothing to it.
    await page.evaluate(() => {
      (window as any).__heard = [];
      addEventListener("message", (e) => (window as any).__heard.push(e.data));
    });
    const [popup] = await Promise.all([
      context.waitForEvent("page"),
      page.evaluate((src) => void ((window as any).__chat = window.open(src, "chat")), embed),
    ]);
    await popup.locator(".panel").waitFor();
    await page.evaluate(() => {
      const chat = (window as any).__chat as Window;
      for (const cmd of ["hello", "send", "identity", "close"])
        chat.postMessage({ parley: 1, cmd, value: "I have a red itchy rash on my arm" }, "*");
    });
    await page.waitForTimeout(1000);
    expect(await popup.locator('.msg[data-role="user"]').count()).toBe(0);
    expect(await popup.locator(".panel").count()).toBe(1);
    // The visitor uses it directly: its events still go nowhere.
    await popup.locator("textarea").fill("I have a red itchy rash on my arm");
    await popup.locator("textarea").press("Enter");
    await expect.poll(() => popup.locator("article.card").count(), { timeout: 30_000 }).toBe(2);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as any).__heard)).toEqual([]);
    await context.close();
  });
});
