import type { FrameLocator, Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newPage, useSite } from "../helpers/e2e.ts";

/**
 * The widget's themes as the built CSS draws them: "light", "dark", and "auto" following the visitor's
 * system, switched while the panel is open; and the host's own light and dark colours. The palette is
 * written once (widget/ui/styles.css) and the build writes it out for browsers without light-dark().
 */
const demo = useSite();

const LIGHT = { background: "rgb(255, 255, 255)", text: "rgb(29, 37, 39)", accent: "rgb(47, 111, 115)" };
const DARK = { background: "rgb(25, 32, 34)", text: "rgb(228, 234, 235)", accent: "rgb(124, 199, 203)" };

/** The panel's background, its text and the header's accent, as computed; and the color-scheme of the root. */
const colours = (chat: Page | FrameLocator, prefix = "") => {
  const at = (css: string): Locator => chat.locator(prefix + css);
  return async () => ({
    background: await at(".panel").evaluate((el) => getComputedStyle(el).backgroundColor),
    text: await at(".panel").evaluate((el) => getComputedStyle(el).color),
    accent: await at(".head").evaluate((el) => getComputedStyle(el).backgroundColor),
    dark: await at(".root").evaluate((el) => getComputedStyle(el).colorScheme === "dark"),
  });
};
const frameEvents = (page: Page) =>
  page.evaluate(() => ((window as any).__events ?? []).map((e: any) => e.event) as string[]);

describe("themes", () => {
  it("draws each theme under a light and a dark system, switched with the panel open", async () => {
    const { context, page, errors } = await newPage(demo);
    await page.goto(demo.url + "/portal.html");
    await expect.poll(() => frameEvents(page)).toContain("ready");
    await page.click("#ask");
    const chat = page.frameLocator("#chat-frame");
    await chat.locator(".panel").waitFor();
    const drawn = colours(chat);

    for (const system of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: system });
      for (const theme of ["light", "dark", "auto"] as const) {
        await page.selectOption("#theme", theme);
        await expect.poll(() => chat.locator(".root").getAttribute("data-theme")).toBe(theme);
        const dark = theme === "dark" || (theme === "auto" && system === "dark");
        await expect.poll(drawn).toEqual({ ...(dark ? DARK : LIGHT), dark });
      }
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it("takes the host's light and dark colours, each in its own scheme", async () => {
    // The host's style is inline: the demo page's CSP would refuse it.
    const { context, page, errors } = await newPage(demo, { bypassCSP: true, colorScheme: "dark" });
    await page.goto(demo.url + "/");
    await page.addStyleTag({
      content: "parley-chat{--parley-bg:#fafafa;--parley-bg-dark:#101418;--parley-accent-dark:#80d0ff}",
    });
    await page.locator("parley-chat button.l").click();
    await page.locator("parley-chat .panel").waitFor();
    const drawn = colours(page, "parley-chat ");

    await expect
      .poll(drawn)
      .toEqual({ ...DARK, background: "rgb(16, 20, 24)", accent: "rgb(128, 208, 255)", dark: true });
    await page.emulateMedia({ colorScheme: "light" });
    await expect.poll(drawn).toEqual({ ...LIGHT, background: "rgb(250, 250, 250)", dark: false });
    expect(errors).toEqual([]);
    await context.close();
  });
});
