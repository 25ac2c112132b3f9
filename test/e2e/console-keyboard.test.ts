import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newPage, useDemo } from "../helpers/e2e.ts";
import { axeFindings, signInByKeyboard } from "../helpers/console.ts";
import { DEMO_ADMIN_KEY } from "../../worker/demo/index.ts";

/**
 * The owner's console keyboard only: after a visitor's conversation on the clinic page, the
 * owner filters and searches the list, exports it, opens the conversation, deletes it through its
 * question and signs out, with Tab, Shift+Tab, Enter, Space, arrows and typing; on Insights and Agents
 * Tab reaches every control. Each step checks where focus is: never <body>, always visibly marked.
 */
const demo = useDemo();
const w = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);
const FIRST = "I have a red itchy rash on my arm";

interface Focus {
  body: boolean;
  tag: string;
  id: string;
  name: string;
  /** The focused element draws an outline or a box-shadow (the console's :focus-visible rule). */
  marked: boolean;
  /** What the marking check saw, for the failure message. */
  style: string;
}

function focused(page: Page): Promise<Focus> {
  return page.evaluate(() => {
    const el = (document.activeElement ?? document.body) as HTMLElement;
    const css = getComputedStyle(el);
    const outlined = css.outlineStyle !== "none" && parseFloat(css.outlineWidth) > 0;
    const label = (el as HTMLInputElement).labels?.[0]?.textContent ?? "";
    return {
      body: el === document.body,
      tag: el.tagName.toLowerCase(),
      id: el.id,
      name: (el.getAttribute("aria-label") || label || el.textContent || "").trim().replace(/\s+/g, " "),
      marked: outlined || css.boxShadow !== "none",
      style: `focus-visible ${el.matches(":focus-visible")}, outline ${css.outline}, box-shadow ${css.boxShadow}`,
    };
  });
}

/** Presses `key` until focus is on what `want` accepts; every stop on the way is checked. */
async function moveTo(page: Page, want: (f: Focus) => boolean, key = "Tab", max = 120): Promise<Focus> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const f = await focused(page);
    expect(f.body, `focus fell to <body> after ${key}`).toBe(false);
    if (!f.marked) await page.screenshot({ path: "test-results/console-keyboard-unmarked.png" });
    expect(f.marked, `no visible focus on ${f.tag}#${f.id} "${f.name}": ${f.style}`).toBe(true);
    if (want(f)) return f;
  }
  throw new Error(`${key} never reached the wanted control`);
}
const named = (name: string | RegExp) => (f: Focus) => (typeof name === "string" ? f.name === name : name.test(f.name));
const byId = (id: string) => (f: Focus) => f.id === id;

/** Every control Tab can stop at in <main>, as an identity the walk records (index among them). */
function tabbables(page: Page): Promise<number> {
  return page.evaluate(() => {
    const sel = "a[href], button, input, select, textarea, [tabindex]:not([tabindex='-1'])";
    const all = [...document.querySelectorAll<HTMLElement>(sel)].filter(
      (el) =>
        el.closest("main") && !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0 && el.tabIndex >= 0,
    );
    all.forEach((el, i) => (el.dataset.kbd = String(i)));
    return all.length;
  });
}

/** Tabs from the page's heading through <main> to its end: every control reached, in order, each visibly. */
async function walkMain(page: Page) {
  const count = await tabbables(page);
  expect(count).toBeGreaterThan(0);
  await page.locator("main").focus();
  const seen: string[] = [];
  for (let i = 0; i < count * 4 + 10 && seen.length < count; i++) {
    await page.keyboard.press("Tab");
    const f = await focused(page);
    if (f.body) {
      const missed = await page.evaluate(
        (seen) =>
          [...document.querySelectorAll<HTMLElement>("[data-kbd]")]
            .filter((el) => !seen.includes(el.dataset.kbd!))
            .map((el) => el.outerHTML.slice(0, 160)),
        seen,
      );
      throw new Error(`focus fell to <body>; never reached: ${missed.join("\n")}`);
    }
    expect(f.marked, `no visible focus on ${f.tag}#${f.id} "${f.name}": ${f.style}`).toBe(true);
    const k = await page.evaluate(() => (document.activeElement as HTMLElement).dataset.kbd ?? "");
    if (k && seen.at(-1) !== k) seen.push(k);
  }
  expect(seen).toEqual(Array.from({ length: count }, (_, i) => String(i)));
}

async function holdConversation(page: Page) {
  await page.goto(demo.dev.url + "/");
  await w(page, "button.l").click();
  await w(page, "textarea.input").first().click();
  await page.keyboard.type(FIRST);
  await page.keyboard.press("Enter");
  await expect.poll(() => w(page, "article.card").count(), { timeout: 30_000 }).toBe(2);
  await expect.poll(() => w(page, "button.send.stop").count(), { timeout: 30_000 }).toBe(0);
}

describe("the owner's console, keyboard only", () => {
  it("filters, searches, exports, opens, deletes and signs out with the keyboard; focus always shows", async () => {
    const visitor = await newPage(demo.browser);
    await holdConversation(visitor.page);
    await visitor.context.close();

    const { context, page, errors } = await newPage(demo.browser, { acceptDownloads: true });
    await signInByKeyboard(page, demo.dev.url, DEMO_ADMIN_KEY);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();

    // The search, then Enter in it (the form submits) until the index has the conversation (~2 s after the turn).
    const link = page.getByRole("link", { name: FIRST });
    await moveTo(page, byId("f-q"));
    await page.keyboard.type("itchy rash");
    await expect
      .poll(
        async () => {
          await page.keyboard.press("Enter");
          await page.waitForTimeout(500);
          return link.count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    // The agent filter (arrow keys on the select), "with advice cards" (Space), then Enter on Apply.
    await moveTo(page, byId("f-agent"));
    await page.keyboard.press("ArrowDown");
    expect(await page.locator("#f-agent").inputValue()).toBe("derm-consult");
    await moveTo(page, byId("f-advice"));
    await page.keyboard.press("Space");
    expect(await page.locator("#f-advice").isChecked()).toBe(true);
    await moveTo(page, named("Apply filters"));
    await page.keyboard.press("Enter");
    await expect.poll(() => page.url()).toMatch(/advice=1/);
    await link.waitFor();
    expect(page.url()).toMatch(/\/console\/conversations\?agent=derm-consult&advice=1&q=itchy\+rash$/);
    expect(await page.locator("table.conversations tbody tr").count()).toBe(1);

    // Export: Tab to the link, Enter, and the file holds the filtered list.
    await moveTo(page, named("Export CSV"));
    const [csv] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
    const lines = readFileSync((await csv.path())!, "utf8")
      .trim()
      .split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(FIRST);

    // Open it: focus moves into the conversation, not to <body>.
    await moveTo(page, named(FIRST));
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Conversation with derm-consult" }).waitFor();
    await expect.poll(async () => (await focused(page)).tag).toBe("main");

    // Delete through the question: Keep it returns focus to Delete; Delete for good removes it.
    await moveTo(page, named("Delete conversation"));
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await focused(page)).name).toBe("Delete for good");
    await moveTo(page, named("Keep it"));
    await page.keyboard.press("Space");
    await expect.poll(async () => (await focused(page)).name).toBe("Delete conversation");
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await focused(page)).name).toBe("Delete for good");
    const id = decodeURIComponent(page.url().split("/").pop()!);
    await page.keyboard.press("Enter");
    await page
      .getByRole("status")
      .filter({ hasText: "The conversation was deleted." })
      .waitFor()
      .catch(async (err) => {
        await page.screenshot({ path: "test-results/console-keyboard-not-deleted.png" });
        throw err;
      });
    expect(page.url()).toMatch(/\/console\/conversations\?agent=derm-consult/);
    await expect.poll(async () => (await focused(page)).tag).toBe("main");
    await expect.poll(() => page.locator("table.conversations").count()).toBe(0);
    const gone = await page.evaluate((sid) => fetch(`/v1/admin/sessions/${sid}`).then((r) => r.status), id);
    expect(gone).toBe(404);
    await page.screenshot({ path: "test-results/console-keyboard-deleted.png" });

    // Sign out: back up the page with Shift+Tab to the header's button.
    await moveTo(page, named("Sign out"), "Shift+Tab");
    await page.keyboard.press("Enter");
    await page.locator("#site-key").waitFor();
    expect(await context.cookies()).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("reaches every control on Insights and Agents by Tab, focus always visible; axe stays clean", async () => {
    const { context, page, errors } = await newPage(demo.browser, { bypassCSP: true });
    await signInByKeyboard(page, demo.dev.url, DEMO_ADMIN_KEY);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    for (const [nav, ready] of [
      ["Insights", "figure.chart"],
      ["Agents", "main form"],
    ] as const) {
      await moveTo(page, (f) => f.tag === "a" && f.name === nav);
      await page.keyboard.press("Enter");
      await page.locator(ready).first().waitFor({ timeout: 15_000 });
      await expect.poll(async () => (await focused(page)).tag).toBe("main");
      await walkMain(page);
      await page.screenshot({ path: `test-results/console-keyboard-${nav.toLowerCase()}.png` });
      expect(await axeFindings(page), nav).toEqual([]);
      // Back to the navigation from wherever the walk ended.
      await moveTo(page, (f) => f.tag === "a" && f.name === "Conversations", "Shift+Tab", 400);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
