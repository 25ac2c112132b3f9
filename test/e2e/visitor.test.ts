import { resolve } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { dermConsultScript } from "../../worker/demo/index.ts";
import { newPage, useSite } from "../helpers/e2e.ts";
import { answered, settled } from "../helpers/e2e-waits.ts";

/**
 * The script-tag widget as visitors use it: keyboard only, checked by axe-core in both themes,
 * styles that neither leak in nor out, the phone layout, and the comforts (unread badge, copy,
 * retry, new conversation, the conversation kept across the site's pages).
 */
const demo = useSite({ script: dermConsultScript });
const RASH = "I have a red itchy rash on my arm";

const launcher = (page: Page) => page.locator("parley-chat button.l");
const panel = (page: Page) => page.locator("parley-chat .panel");
const userBubbles = (page: Page) => page.locator('parley-chat .msg[data-role="user"] .bubble');
const input = (page: Page) => page.locator("parley-chat textarea");
const streaming = (page: Page) => page.locator('parley-chat [data-streaming="true"]');
/** What has focus inside the widget's shadow root, as `tag.class[data-action]`. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.querySelector("parley-chat")?.shadowRoot?.activeElement as HTMLElement | null;
    return el
      ? `${el.tagName.toLowerCase()}.${el.className}${el.dataset.action ? `[${el.dataset.action}]` : ""}`
      : `outside:${document.activeElement?.tagName}`;
  });

// axe-core and the host styles these tests inject are inline: the demo pages' CSP would refuse them.
const open = (opts: Parameters<typeof newPage>[1] = {}) => newPage(demo, { bypassCSP: true, ...opts });

async function axeViolations(page: Page): Promise<Array<{ id: string; impact: string; help: string; nodes: number }>> {
  if (!(await page.evaluate(() => "axe" in window)))
    await page.addScriptTag({ path: resolve("node_modules/axe-core/axe.min.js") });
  return page.evaluate(async () => {
    const axe = (window as any).axe;
    const res = await axe.run({ include: [["parley-chat", ".root"]] }, { resultTypes: ["violations"] });
    return res.violations
      .filter((v: any) => v.impact === "serious" || v.impact === "critical")
      .map((v: any) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.length,
        targets: v.nodes.map((n: any) => n.target),
      }));
  });
}

describe("keyboard and accessibility", () => {
  it("works by keyboard alone, end to end, with no serious axe violations in either theme", async () => {
    const { context, page, errors } = await open();
    await page.goto(demo.url + "/");
    await launcher(page).waitFor();
    // Tab from the top of the page until the launcher has focus.
    let reached = false;
    for (let i = 0; i < 25 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = (await focused(page)) === "button.l";
    }
    expect(reached).toBe(true);
    await page.keyboard.press("Enter");
    await panel(page).waitFor();
    // Focus moves into the composer.
    await expect.poll(() => focused(page)).toBe("textarea.input");
    await page.keyboard.type(RASH);
    await page.keyboard.press("Enter");
    await expect.poll(() => userBubbles(page).count()).toBe(1);
    await answered(page, RASH);
    await expect.poll(() => page.locator("parley-chat article.card").count()).toBe(2);
    // The finished reply is announced once in the polite live region (not token by token).
    const live = page.locator('parley-chat [aria-live="polite"]');
    await expect.poll(() => live.textContent()).toMatch(/^New reply: .*advice cards/);

    // Shift+Tab from the composer walks back through the conversation: copy, cards, then the header.
    const seen: string[] = [];
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press("Shift+Tab");
      const f = await focused(page);
      seen.push(f);
      if (f.includes("[new-chat]")) break;
    }
    expect(seen).toContain("button.act[copy]");
    expect(seen.filter((f) => f.startsWith("article.card")).length).toBe(2);
    expect(seen.at(-1)).toBe("button.icon-btn[new-chat]");

    // Light theme, then dark (prefers-color-scheme with the default theme "auto").
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect
      .poll(() => page.locator("parley-chat .panel").evaluate((el) => getComputedStyle(el).backgroundColor))
      .toBe("rgb(25, 32, 34)");
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: "test-results/e2e-dark.png", animations: "disabled" });

    // Escape closes; focus returns to the launcher.
    await page.keyboard.press("Escape");
    await panel(page).waitFor({ state: "detached" });
    expect(await focused(page)).toBe("button.l");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("honours prefers-reduced-motion", async () => {
    const { context, page } = await open({ reducedMotion: "reduce" });
    await page.goto(demo.url + "/");
    await launcher(page).click();
    await panel(page).waitFor();
    expect(await panel(page).evaluate((el) => getComputedStyle(el).animationName)).toBe("none");
    expect(await launcher(page).evaluate((el) => getComputedStyle(el).transitionDuration)).toBe("0s");
    await context.close();
  });
});

describe("styles", () => {
  it("never leak out into the host page, and host custom properties theme the widget", async () => {
    const { context, page } = await open();
    await page.goto(demo.url + "/");
    const snapshot = () =>
      page.evaluate(() =>
        ["body", "main button", ".card", ".card h3", "footer p", "header.site", "nav a"].map((sel) => {
          const cs = getComputedStyle(document.querySelector(sel)!);
          return [
            sel,
            cs.font,
            cs.color,
            cs.backgroundColor,
            cs.padding,
            cs.margin,
            cs.border,
            cs.borderRadius,
            cs.boxSizing,
            cs.position,
          ].join("|");
        }),
      );
    await launcher(page).click();
    await panel(page).waitFor();
    const withWidget = await snapshot();
    // No widget stylesheet outside its shadow root.
    expect(
      await page.evaluate(() => [...document.querySelectorAll("style")].some((s) => s.textContent!.includes(".panel"))),
    ).toBe(false);
    await page.evaluate(() => document.querySelector("parley-chat")!.remove());
    expect(await snapshot()).toEqual(withWidget);

    // Theming through custom properties set by the host on the element.
    const { page: p2 } = { page: await context.newPage() };
    await p2.goto(demo.url + "/");
    await p2.addStyleTag({
      content:
        "parley-chat{--parley-accent:#6b2fa3;--parley-left:24px;--parley-right:auto" +
        ";--parley-radius:4px;--parley-panel-width:420px}",
    });
    await launcher(p2).click();
    await panel(p2).waitFor();
    await settled(panel(p2));
    await settled(launcher(p2));
    expect(
      await launcher(p2).evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).left]),
    ).toEqual(["rgb(107, 47, 163)", "24px"]);
    const box = await panel(p2).boundingBox();
    expect([box!.x, box!.width]).toEqual([24, 420]);
    expect(await panel(p2).evaluate((el) => getComputedStyle(el).borderTopLeftRadius)).toBe("4px");
    await context.close();
  });
});

describe("phone", () => {
  it("is full screen, locks the page behind it, and keeps the composer above the keyboard", async () => {
    const { context, page } = await open({ viewport: { width: 390, height: 780 }, isMobile: true, hasTouch: true });
    await page.goto(demo.url + "/");
    await launcher(page).click();
    await panel(page).waitFor();
    await settled(panel(page));
    expect(await panel(page).boundingBox()).toMatchObject({ x: 0, y: 0, width: 390, height: 780 });
    expect(await page.evaluate(() => [document.documentElement.style.overflow, document.body.style.overflow])).toEqual([
      "hidden",
      "hidden",
    ]);
    await input(page).fill(RASH);
    await input(page).press("Enter");
    await answered(page, RASH);
    await expect.poll(() => page.locator("parley-chat article.card").count()).toBe(2);
    await page.screenshot({ path: "test-results/e2e-phone.png", animations: "disabled" });

    // The on-screen keyboard shrinks the visual viewport: the panel follows, the composer stays visible.
    await page.evaluate(() => {
      const vv = window.visualViewport!;
      Object.defineProperty(vv, "height", { value: 430, configurable: true });
      vv.dispatchEvent(new Event("resize"));
    });
    await expect.poll(async () => (await panel(page).boundingBox())!.height).toBe(430);
    const composer = await page.locator("parley-chat .composer").boundingBox();
    expect(composer!.y + composer!.height).toBeLessThanOrEqual(430);
    await page.screenshot({ path: "test-results/e2e-phone-keyboard.png" });

    await page.locator("parley-chat .head .icon-btn[aria-label='Close']").click();
    await panel(page).waitFor({ state: "detached" });
    await expect
      .poll(() => page.evaluate(() => [document.documentElement.style.overflow, document.body.style.overflow]))
      .toEqual(["", ""]);
    await context.close();
  });
});

describe("visitor comforts", () => {
  it("unread badge, copy, retry after stop, new conversation, kept across pages", async () => {
    const { context, page, errors } = await open();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: demo.url });
    await page.goto(demo.url + "/");
    await launcher(page).click();
    await panel(page).waitFor();
    // A reply that arrives while the panel is closed shows as a badge on the launcher.
    const unseen = demo.gate();
    const first = `${RASH} ${unseen.marker}`;
    await input(page).fill(first);
    await input(page).press("Enter");
    await input(page).press("Escape");
    await panel(page).waitFor({ state: "detached" });
    await unseen.release();
    await expect.poll(() => launcher(page).locator("b").textContent()).toBe("1");
    expect(await launcher(page).getAttribute("aria-label")).toBe("Open chat (1 new)");
    await launcher(page).click();
    await panel(page).waitFor();
    expect(await launcher(page).locator("b").count()).toBe(0);
    await expect.poll(() => page.locator("parley-chat article.card").count()).toBe(2);

    // Copy a reply.
    await page.locator('parley-chat button[data-action="copy"]').first().click();
    await expect
      .poll(() => page.locator('parley-chat button[data-action="copy"]').first().getAttribute("aria-label"))
      .toBe("Copied");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^Thanks for describing it/);
    expect(copied).toMatch(/two advice cards/);

    // Navigate to another page of the site with the same agent: the conversation is there.
    await page.goto(demo.url + "/visit.html");
    await launcher(page).click();
    await expect.poll(() => userBubbles(page).allTextContents()).toEqual([first]);
    await page.goBack();
    await launcher(page).click();
    await expect.poll(() => userBubbles(page).allTextContents()).toEqual([first]);

    // Stop a reply midway, then retry it (the retry is not held: the gate was opened by then).
    const midway = demo.gate();
    const acne = `How should I care for acne-prone skin? ${midway.marker}`;
    await input(page).fill(acne);
    await input(page).press("Enter");
    await streaming(page).waitFor();
    await page.locator("parley-chat button.send.stop").click();
    const retry = page.locator("parley-chat .note .link-btn");
    await retry.waitFor();
    expect((await midway.ended()).aborted).toBe(true);
    await midway.release();
    const before = await page.locator('parley-chat .msg[data-role="assistant"] .bubble').count();
    await retry.click();
    await answered(page, acne);
    await expect
      .poll(() => page.locator('parley-chat .msg[data-role="assistant"] .bubble').count())
      .toBeGreaterThan(before);
    expect(await page.locator("parley-chat .error").count()).toBe(0);

    // A new conversation: the old one is gone, and so is its stored session.
    const key = `parley:session:${demo.siteKey}:derm-consult`;
    const oldSession = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)!).sessionId, key);
    await page.locator('parley-chat button[data-action="new-chat"]').click();
    await expect.poll(() => userBubbles(page).count()).toBe(0);
    await expect
      .poll(() => page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? "{}").sessionId, key))
      .not.toBe(oldSession);
    await page.reload();
    await launcher(page).click();
    await panel(page).waitFor();
    // The new conversation, restored from the worker once the page's requests are done: the greeting only.
    await page.locator('parley-chat .msg[data-role="assistant"]').first().waitFor();
    await page.waitForLoadState("networkidle");
    expect(await userBubbles(page).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("speaks Chinese in everything new, counts by Intl", async () => {
    const { context, page } = await open({ locale: "zh-CN" });
    await page.goto(demo.url + "/");
    await launcher(page).click();
    await input(page).fill("我的手臂上有红色的皮疹，很痒");
    await input(page).press("Enter");
    await answered(page, "我的手臂上有红色的皮疹，很痒");
    await page.locator('parley-chat button[data-action="copy"]').first().waitFor();
    expect(await page.locator('parley-chat button[data-action="copy"]').first().getAttribute("aria-label")).toBe(
      "复制回复",
    );
    expect(await page.locator('parley-chat button[data-action="new-chat"]').getAttribute("aria-label")).toBe("新对话");
    await expect.poll(() => page.locator('parley-chat button[data-action="advice"]').textContent()).toBe("2 我的建议");
    await context.close();
  });
});
