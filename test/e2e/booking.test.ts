import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newPage, useDemoSite } from "../helpers/e2e.ts";
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { WIDGET_SHOTS } from "../helpers/browser.ts";

/**
 * Booking in the chat on the demo clinic's page (built bundle, local worker, demo calendar): the
 * slots card in the visitor's time zone and language, a time picked and confirmed by keyboard, the
 * visit booked on the worker, then cancelled from the card. On the demo site itself: the demo calendar
 * is the demo site's alone; each visit booked here is cancelled again.
 */
const demo = useDemoSite();
const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);

/** axe-core's serious and critical findings in the card (injected inline: the page's CSP would refuse it). */
async function cardFindings(page: Page): Promise<unknown[]> {
  if (!(await page.evaluate(() => "axe" in window)))
    await page.addScriptTag({ path: resolve("node_modules/axe-core/axe.min.js") });
  return page.evaluate(async () => {
    const res = await (window as any).axe.run(
      { include: [["parley-chat", ".booking"]] },
      { resultTypes: ["violations"] },
    );
    return res.violations
      .filter((v: any) => v.impact === "serious" || v.impact === "critical")
      .map((v: any) => ({ id: v.id, targets: v.nodes.map((n: any) => n.target) }));
  });
}

/** The chat panel as the visitor sees it (the docs' pictures of a booked conversation, with UPDATE_DOCS=1). */
async function shot(page: Page, name: string) {
  const clip = (await q(page, ".panel").boundingBox()) ?? undefined;
  await page.screenshot({ path: `${WIDGET_SHOTS}/${name}.png`, clip, animations: "disabled" });
}

const CASES = [
  { locale: "en-US", timezoneId: "America/New_York", ask: "I'd like to book a visit", booked: "Booked", slot: 0 },
  { locale: "zh-CN", timezoneId: "Asia/Shanghai", ask: "我想预约看诊", booked: "已预约", slot: 1 },
] as const;

describe("booking a visit in the chat", () => {
  for (const c of CASES)
    it(`books and cancels a visit from the slots card (${c.locale})`, async () => {
      const { context, page, errors } = await newPage(demo, {
        locale: c.locale,
        timezoneId: c.timezoneId,
        viewport: { width: 1280, height: 900 },
        bypassCSP: true,
      });
      mkdirSync(WIDGET_SHOTS, { recursive: true });
      await page.goto(demo.url + "/");
      await q(page, "button.l").click();
      await q(page, "textarea").click();
      await page.keyboard.type(c.ask);
      await page.keyboard.press("Enter");
      const card = q(page, ".booking");
      await card.locator("button[data-start]").first().waitFor();
      expect(await card.getAttribute("data-booking")).toBe("slots");

      // Each time is the slot's start in the visitor's own zone and language.
      const slot = card.locator("button[data-start]").nth(c.slot);
      const start = (await slot.getAttribute("data-start"))!;
      const local = new Intl.DateTimeFormat(c.locale, { hour: "2-digit", minute: "2-digit", timeZone: c.timezoneId });
      expect(await slot.textContent()).toBe(local.format(new Date(start)));
      const shown = await card.locator("button[data-start]").count();
      await card.locator("button.bk-link").click();
      expect(await card.locator("button[data-start]").count()).toBeGreaterThan(shown);
      await shot(page, `booking-slots-${c.locale}`);
      expect(await cardFindings(page)).toEqual([]);

      // Picked and confirmed by keyboard.
      await card.locator(`button[data-start="${start}"]`).focus();
      await page.keyboard.press("Enter");
      await card.locator("input").first().waitFor();
      expect(await card.getAttribute("data-booking")).toBe("confirm");
      await card.locator("input").first().focus();
      await page.keyboard.type("Ana Silva");
      await page.keyboard.press("Tab");
      await page.keyboard.type("ana@example.com");
      await page.keyboard.press("Tab");
      await page.keyboard.type("Itchy rash on the arm");
      await shot(page, `booking-confirm-${c.locale}`);
      expect(await cardFindings(page)).toEqual([]);
      await page.keyboard.press("Enter");
      await expect.poll(() => card.getAttribute("data-booking")).toBe("booked");
      expect(await card.locator("h3").textContent()).toContain(c.booked);
      expect(await card.textContent()).toContain("ana@example.com");
      await shot(page, `booking-booked-${c.locale}`);
      expect(await cardFindings(page)).toEqual([]);

      await card.locator("button.bk-link").click();
      await expect.poll(() => card.getAttribute("data-booking")).toBe("cancelled");
      expect(errors).toEqual([]);
      await context.close();
    });
});
