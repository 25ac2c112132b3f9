import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newPage, useDemo } from "../helpers/e2e.ts";
import { watchViolations } from "../helpers/csp-watch.ts";
import { axeFindings, signInByKeyboard } from "../helpers/console.ts";
import { DEMO_ADMIN_KEY } from "../../worker/demo/index.ts";
import { CONSOLE_SHOTS } from "../helpers/browser.ts";

/**
 * The owner's console on a conversation a visitor has just held on the clinic page: it
 * appears in the list, opens with its advice cards, the visitor's rating and comment and the trace;
 * the list and the conversation download (the files are read); insights count it; delete erases it.
 * axe-core on each page in English and Chinese; screenshots for the docs (docs/console/).
 */
const demo = useDemo();
const SHOTS = CONSOLE_SHOTS;
const w = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);

async function holdConversation(page: Page) {
  await page.goto(demo.dev.url + "/");
  await w(page, "button.l").click();
  await w(page, "textarea.input").first().click();
  await page.keyboard.type("I have a red itchy rash on my arm");
  await page.keyboard.press("Enter");
  await expect.poll(() => w(page, "article.card").count(), { timeout: 30_000 }).toBe(2);
  // The turn is over (no stop button) before the reply is rated: the reply no longer re-renders.
  await expect.poll(() => w(page, "button.send.stop").count(), { timeout: 30_000 }).toBe(0);
  const reply = w(page, ".msg[data-role=assistant]").last();
  await expect.poll(() => reply.locator("[data-action=thumbs-down]").count(), { timeout: 20_000 }).toBe(1);
  await reply.locator("[data-action=thumbs-down]").click();
  await reply.locator("form.feedback-form textarea").click();
  await page.keyboard.type("did not ask how long it has itched");
  await reply.locator("form.feedback-form button[type=submit]").click();
  await expect.poll(() => reply.locator("[data-action=thumbs-down]").getAttribute("aria-pressed")).toBe("true");
  return (await w(page, "article.card .card-title").first().textContent())?.trim() ?? "";
}

/** Waits for the conversation to reach the index (pushed by its session at most ~2 s after the turn). */
async function findInList(page: Page, text: string) {
  const link = page.getByRole("link", { name: text });
  await expect
    .poll(
      async () => {
        await page.getByRole("button", { name: "Apply filters" }).click();
        await page.waitForTimeout(500);
        return (await link.count()) > 0;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return link;
}

describe("the owner's console: conversations and insights", () => {
  it("shows a conversation just held, with its advice cards, feedback and trace; exports; deletes", async () => {
    const visitor = await newPage(demo.browser);
    const cardTitle = await holdConversation(visitor.page);
    expect(cardTitle).not.toBe("");
    await visitor.context.close();

    const { context, page, errors } = await newPage(demo.browser, { acceptDownloads: true });
    const watch = await watchViolations(context, page);
    await signInByKeyboard(page, demo.dev.url, DEMO_ADMIN_KEY);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    // Filtered to thumbs-down conversations with advice, and searched: still found.
    await page.getByLabel("Feedback").selectOption("down");
    await page.getByLabel("With advice cards").check();
    await page.getByLabel("Search the visitor's first message").fill("itchy rash");
    const link = await findInList(page, "I have a red itchy rash on my arm");
    const row = page.locator("table.conversations tbody tr").filter({ has: link });
    await expect.poll(() => row.textContent()).toMatch(/0 up · 1 down.*2 advice/);
    expect(page.url()).toMatch(/\/console\/conversations\?.*feedback=down.*advice=1/);
    await page.screenshot({ path: `${SHOTS}/conversations.png` });

    // The filtered list downloads as CSV: the file holds this conversation's row.
    const [csv] = await Promise.all([page.waitForEvent("download"), page.getByText("Export CSV").click()]);
    expect(csv.suggestedFilename()).toMatch(/^conversations-\d{4}-\d\d-\d\d\.csv$/);
    const lines = readFileSync((await csv.path())!, "utf8")
      .trim()
      .split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/"derm-consult",.*"I have a red itchy rash on my arm"/);

    // Open it by keyboard: focus the link, Enter.
    await link.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Conversation with derm-consult" }).waitFor();
    const transcript = page.locator("ol.transcript");
    await expect.poll(() => transcript.locator("aside.advice").count()).toBe(2);
    await expect(transcript.locator("aside.advice").first().textContent()).resolves.toContain(cardTitle);
    await expect(transcript.locator(".feedback").textContent()).resolves.toBe(
      "Visitor rated this reply: thumbs down · Comment: did not ask how long it has itched",
    );
    const trace = page.locator("table.trace tbody tr");
    await expect.poll(() => trace.count()).toBeGreaterThan(1);
    await expect(page.locator("table.trace").textContent()).resolves.toMatch(/completion.*parley-demo/);
    await expect(page.locator("table.trace").textContent()).resolves.toMatch(/\d+ ms/);
    await page.screenshot({ path: `${SHOTS}/conversation.jpg`, fullPage: true, type: "jpeg", quality: 50 });

    const [json] = await Promise.all([page.waitForEvent("download"), page.getByText("Download JSON").click()]);
    const state = JSON.parse(readFileSync((await json.path())!, "utf8"));
    expect(state.advice).toHaveLength(2);
    expect(Object.values(state.feedback)).toEqual([expect.objectContaining({ rating: "down" })]);
    const id = state.sessionId as string;

    // Insights count it, per day and agent.
    await page.getByRole("link", { name: "Insights" }).click();
    await page.getByRole("heading", { name: "Insights" }).waitFor();
    const numbers = page.locator(".numbers tbody tr").filter({ hasText: "derm-consult" });
    await expect.poll(() => numbers.count()).toBe(1);
    expect(await page.locator("figure.chart").count()).toBe(7);
    await page.screenshot({ path: `${SHOTS}/insights.jpg`, fullPage: true, type: "jpeg", quality: 50 });
    await page.goBack();

    // Delete: asked first, then gone from the list and from the worker.
    await page.getByRole("button", { name: "Delete conversation" }).click();
    await page.getByRole("button", { name: "Delete for good" }).click();
    await page.getByRole("status").filter({ hasText: "The conversation was deleted." }).waitFor();
    expect(await page.getByRole("link", { name: "I have a red itchy rash on my arm" }).count()).toBe(0);
    const gone = await page.evaluate((sid) => fetch(`/v1/admin/sessions/${sid}`).then((r) => r.status), id);
    expect(gone).toBe(404);

    expect(await watch.events()).toEqual([]);
    expect(watch.console).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("has no serious or critical axe findings on a conversation and the insights, in English and Chinese", async () => {
    const visitor = await newPage(demo.browser);
    await holdConversation(visitor.page);
    await visitor.context.close();
    for (const locale of ["en-US", "zh-CN"]) {
      const { context, page } = await newPage(demo.browser, { bypassCSP: true, locale });
      await signInByKeyboard(page, demo.dev.url, DEMO_ADMIN_KEY);
      await page.locator("table.conversations tbody tr").first().waitFor({ timeout: 15_000 });
      expect(await axeFindings(page), `list ${locale}`).toEqual([]);
      await page.locator("table.conversations tbody tr a").first().click();
      await page.locator("ol.transcript").waitFor();
      expect(await axeFindings(page), `conversation ${locale}`).toEqual([]);
      await page.goto(`${demo.dev.url}/console/insights`);
      await page.locator("figure.chart").first().waitFor();
      expect(JSON.stringify(await axeFindings(page)), `insights ${locale}`).toBe("[]");
      if (locale === "zh-CN") await page.screenshot({ path: `${SHOTS}/insights-zh.png` });
      await context.close();
    }
  });
});
