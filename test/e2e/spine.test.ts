import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useWranglerDev } from "../helpers/e2e.ts";
import { settled } from "../helpers/e2e-waits.ts";

/**
 * The built widget (dist/public, `npm run build` first) on the demo page served by `wrangler dev` as
 * `npm start` runs it (its own, with the demo model's pace), driven as a visitor would: launcher,
 * greeting, a streamed markdown reply, reload and restore.
 */
const demo = useWranglerDev();

// Playwright's CSS locators pierce open shadow roots.
const launcher = (page: Page) => page.locator("parley-chat button.l");
const panel = (page: Page) => page.locator("parley-chat .panel");
const assistantBubbles = (page: Page) => page.locator('parley-chat .msg[data-role="assistant"] .bubble');
const userBubbles = (page: Page) => page.locator('parley-chat .msg[data-role="user"] .bubble');
const input = (page: Page) => page.locator("parley-chat textarea");

describe("widget spine on the demo page", () => {
  it("isolates styles, streams a markdown reply, restores after reload", async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(demo.dev.url + "/");

    await expect.poll(() => page.locator("#demo-banner").isVisible()).toBe(true);
    await launcher(page).waitFor();
    expect(await launcher(page).getAttribute("aria-label")).toBe("Open chat");
    // The host's `button { background: hotpink !important; font-size: 30px }` must not reach it.
    const style = await launcher(page).evaluate((el) => {
      const cs = getComputedStyle(el);
      return { bg: cs.backgroundColor, fontSize: cs.fontSize, border: cs.borderStyle, width: cs.width };
    });
    expect(style.bg).not.toBe("rgb(255, 105, 180)");
    expect(style.fontSize).not.toBe("30px");
    expect(style.border).not.toBe("dashed");
    expect(style.width).toBe("60px");
    // The host's own button is hotpink: the hostile CSS is really there.
    expect(await page.locator("main button").evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      "rgb(255, 105, 180)",
    );

    await launcher(page).click();
    await panel(page).waitFor();
    await expect.poll(() => assistantBubbles(page).first().textContent()).toMatch(/skin assistant/i);
    expect(await launcher(page).getAttribute("aria-expanded")).toBe("true");
    expect(await page.locator('parley-chat [aria-live="polite"]').count()).toBe(1);
    // Widget text is not red although the host has `p { color: red }`.
    expect(
      await page
        .locator("parley-chat .md p")
        .first()
        .evaluate((el) => getComputedStyle(el).color),
    ).not.toBe("rgb(255, 0, 0)");

    // Shift+Enter makes a new line and sends nothing.
    await input(page).click();
    await page.keyboard.type("first line");
    await page.keyboard.press("Shift+Enter");
    await page.keyboard.type("second line");
    expect(await input(page).inputValue()).toBe("first line\nsecond line");
    expect(await userBubbles(page).count()).toBe(0);
    await input(page).fill("");

    // Record the length of the streaming bubble on every DOM change inside the shadow root.
    await page.evaluate(() => {
      const root = document.querySelector("parley-chat")!.shadowRoot!;
      const lengths: number[] = ((window as any).__lengths = []);
      new MutationObserver(() => {
        const el = root.querySelector('[data-streaming="true"] .bubble');
        if (el) lengths.push(el.textContent!.length);
      }).observe(root, { subtree: true, childList: true, characterData: true });
    });
    await page.keyboard.type("I have a red itchy rash on my arm");
    await page.keyboard.press("Enter");
    await expect.poll(() => userBubbles(page).first().textContent()).toBe("I have a red itchy rash on my arm");
    expect(await input(page).inputValue()).toBe("");
    // While streaming, the send button is a Stop button.
    await page.locator('parley-chat [data-streaming="true"]').waitFor();
    expect(await page.locator("parley-chat button.send.stop").count()).toBe(1);
    // Done: the streaming bubble is gone and the reply is a normal message.
    await page.locator('parley-chat [data-streaming="true"]').waitFor({ state: "detached" });
    const lengths: number[] = await page.evaluate(() => (window as any).__lengths);
    expect(new Set(lengths.filter((n) => n > 0)).size).toBeGreaterThanOrEqual(2);
    const reply = assistantBubbles(page).nth(1);
    expect(await reply.locator("strong").count()).toBeGreaterThan(0);
    expect(await reply.locator("li").count()).toBeGreaterThan(0);
    const finalText = (await reply.textContent())!;
    expect(Math.max(...lengths)).toBeLessThanOrEqual(finalText.length);
    await page.screenshot({ path: "test-results/e2e-spine.png" });

    // Reload: the conversation comes back from the worker.
    await page.reload();
    await launcher(page).click();
    await expect.poll(() => userBubbles(page).count()).toBe(1);
    expect(await userBubbles(page).first().textContent()).toBe("I have a red itchy rash on my arm");
    // The greeting, the answer, and the closing line after the advice cards.
    await expect.poll(() => assistantBubbles(page).count()).toBe(3);
    // The markdown chunk loads alongside the restore: the text may show plain for a moment first.
    await expect.poll(() => assistantBubbles(page).nth(1).textContent()).toBe(finalText);
    await expect.poll(() => assistantBubbles(page).nth(1).locator("strong").count()).toBeGreaterThan(0);
    await settled(panel(page));
    await page.screenshot({ path: "test-results/e2e-restored.png" });

    // Escape closes the panel.
    await input(page).press("Escape");
    await panel(page).waitFor({ state: "detached" });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("lets any origin load the loader and the widget bundle", async () => {
    for (const file of ["/parley.js", "/parley-widget.js"]) {
      const res = await fetch(demo.dev.url + file, { headers: { origin: "https://other-site.example" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
  });

  it("speaks Chinese when the browser language is zh-CN", async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "zh-CN" });
    const page = await context.newPage();
    await page.goto(demo.dev.url + "/");
    await launcher(page).waitFor();
    expect(await launcher(page).getAttribute("aria-label")).toBe("打开聊天");
    await launcher(page).click();
    await panel(page).waitFor();
    expect(await input(page).getAttribute("placeholder")).toBe("请输入您的问题…");
    expect(await page.locator("parley-chat .sub").textContent()).toContain("AI 助手");
    await expect.poll(() => page.locator("parley-chat .title").textContent()).toMatch(/[\u4e00-\u9fff]/);
    await expect.poll(() => assistantBubbles(page).first().textContent()).toMatch(/[\u4e00-\u9fff]/);
    // A finished reply's copy and rating speak Chinese too: their strings are a chunk of their own.
    await input(page).fill("I have a red itchy rash on my arm");
    await input(page).press("Enter");
    const copy = page.locator('parley-chat button[data-action="copy"]').last();
    await expect.poll(() => copy.getAttribute("aria-label")).toBe("复制回复");
    expect(await page.locator('parley-chat button[aria-label="有帮助"]').count()).toBeGreaterThan(0);
    await page.screenshot({ path: "test-results/e2e-zh.png", animations: "disabled" });
    await context.close();
  });

  it("fills the screen on a narrow viewport, and the window.Parley API works before load", async () => {
    const context = await demo.browser.newContext({ viewport: { width: 390, height: 780 }, locale: "en-US" });
    const page = await context.newPage();
    await page.goto(demo.dev.url + "/");
    await page.waitForFunction(() => "Parley" in window);
    await page.evaluate(() => {
      const w = window as any;
      w.__events = [];
      for (const ev of ["ready", "open", "close"]) w.Parley.on(ev, () => w.__events.push(ev));
      w.Parley.open();
    });
    await panel(page).waitFor();
    await settled(panel(page)); // the opening animation (a small translate and scale)
    const box = await panel(page).boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: 390, height: 780 });
    await page.screenshot({ path: "test-results/e2e-mobile.png" });
    await page.evaluate(() => (window as any).Parley.close());
    await panel(page).waitFor({ state: "detached" });
    const events = await page.evaluate(() => (window as any).__events);
    expect(events).toEqual(expect.arrayContaining(["ready", "open", "close"]));
    await context.close();
  });
});
