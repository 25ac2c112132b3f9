import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_ADMIN_KEY, newPage, useSite } from "../helpers/e2e.ts";
import { signInByKeyboard } from "../helpers/console.ts";

/**
 * The strategy desk end to end on the sales coach demo: a visitor's thumbs-down with a comment, a desk run
 * (started by the owner's "run now" instead of the minute's debounce), a candidate that waits for
 * the owner (one visitor's complaint never promotes by itself), the owner reading the comment word
 * for word beside the diff in the console and promoting it, and the next conversation following
 * the new production version. Built bundle, local worker, scripted demo model.
 */
const demo = useSite();
const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);
const QUESTION = "A clinic asks whether our moisturiser suits eczema patients";
/** The visitor's comment, with markup the console must show as text. */
const COMMENT = "too pushy about price <img src=x onerror=\"document.title='xss'\">";

async function ask(page: Page) {
  await q(page, "textarea.input").first().click();
  await page.keyboard.type(QUESTION);
  await page.keyboard.press("Enter");
  const reply = q(page, ".msg[data-role=assistant]").last();
  await expect.poll(() => reply.locator("[data-action=thumbs-down]").count()).toBe(1);
  return reply;
}

const adminGet = (path: string) => demo.admin("GET", path);

describe("the strategy desk on the sales coach demo", () => {
  it(
    "thumbs-down 'too pushy about price' -> a run -> a candidate the owner reads beside the visitor's words " +
      "and promotes -> the next chat follows",
    async () => {
      const { context, page, errors } = await newPage(demo, { viewport: { width: 1280, height: 860 } });
      await page.goto(demo.url + "/sales.html");
      await q(page, "button.l").click();
      const first = await ask(page);
      expect(await first.locator(".bubble").last().textContent()).toContain("Close on price");

      await first.locator("[data-action=thumbs-down]").click();
      await first.locator("form.feedback-form textarea").click();
      await page.keyboard.type(COMMENT);
      await first.locator("form.feedback-form button[type=submit]").click();
      await expect.poll(() => first.locator("[data-action=thumbs-down]").getAttribute("aria-pressed")).toBe("true");
      // Each look spends the file's admin limit (60 a minute): a few a second.
      await expect
        .poll(async () => (await adminGet("/v1/admin/desk/sales-coach/queue")).queue.length, { interval: 250 })
        .toBe(1);

      await demo.admin("POST", "/v1/admin/desk/sales-coach/run");
      // The demo site promotes by itself, but not one visitor's complaint: the candidate waits.
      // The run ends on its own (its model calls and its gate): asked again until it says so.
      await expect
        .poll(async () => (await adminGet("/v1/admin/desk/sales-coach/runs")).runs[0]?.status, { interval: 250 })
        .toBe("candidate");
      const [run] = (await adminGet("/v1/admin/desk/sales-coach/runs")).runs;
      expect(run).toMatchObject({ loops: 2, scores: [70, 90], gate: { passed: true } });
      expect(run.reasons.at(-1)).toMatch(/not promoted by itself/);
      expect((await adminGet("/v1/admin/agents/sales-coach/system-prompt")).versions.strategies).toBe(1);

      // The owner's console: the comment word for word, as text, beside the candidate's diff.
      const owner = await context.newPage();
      await signInByKeyboard(owner, demo.url, DEMO_ADMIN_KEY, demo.siteKey);
      await owner.getByRole("navigation").getByRole("link", { name: "Strategy desk", exact: true }).click();
      await owner.getByLabel("Agent", { exact: true }).selectOption("sales-coach");
      await owner.locator("tbody tr").filter({ hasText: "candidate" }).getByRole("button").click();
      const requests = owner.locator(".desk-review .desk-requests");
      await requests.locator("blockquote.verbatim").waitFor();
      expect(await requests.locator("blockquote.verbatim").textContent()).toBe(COMMENT);
      expect(await requests.locator("li").getAttribute("data-source")).toBe("feedback");
      expect(await requests.locator("img").count()).toBe(0);
      await owner.locator(".desk-review table.diff td.ins").first().waitFor();
      expect(await owner.title()).not.toBe("xss");
      await requests.scrollIntoViewIfNeeded();
      await owner.screenshot({ path: "test-results/e2e-strategy-desk-review.png" });
      await owner.getByLabel("Why", { exact: true }).fill("Less pushy reads better");
      await owner.getByRole("button", { name: "Promote" }).click();
      await owner.getByRole("status").filter({ hasText: "Done: the run is now promoted." }).waitFor();
      const prompt = await adminGet("/v1/admin/agents/sales-coach/system-prompt");
      expect(prompt.versions.strategies).toBe(2);
      await owner.close();

      // A new conversation (header button) is answered with the new production prompt.
      await q(page, "button[data-action=new-chat]").click();
      const next = await ask(page);
      const text = await next.locator(".bubble").last().textContent();
      expect(text).toContain("Leave price for when they ask about cost");
      expect(text).not.toContain("Close on price");
      await page.screenshot({ path: "test-results/e2e-strategy-desk.png", animations: "disabled" });
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
