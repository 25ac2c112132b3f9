import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newPage, useSite } from "../helpers/e2e.ts";
import { answered } from "../helpers/e2e-waits.ts";

/** A visitor rates replies; the worker stores the ratings in the session (built bundle, local worker). */
const demo = useSite();
const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);

async function ask(page: Page, text: string) {
  await q(page, "textarea.input").first().click();
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
  // The turn is over before the reply is rated: the reply no longer re-renders.
  await answered(page, text);
  await expect.poll(() => q(page, ".msg[data-role=assistant] [data-action=thumbs-down]").count()).toBeGreaterThan(0);
}

describe("feedback on replies", () => {
  it("thumbs-down with a comment, kept across a reload", async () => {
    const { context, page, errors } = await newPage(demo, { viewport: { width: 1280, height: 860 } });
    await page.goto(demo.url + "/sales.html");
    await q(page, "button.l").click();
    await ask(page, "A clinic asks whether our moisturiser suits eczema patients");
    const reply = q(page, ".msg[data-role=assistant]").last();
    await reply.locator("[data-action=thumbs-down]").click();
    const form = reply.locator("form.feedback-form textarea");
    await form.click();
    await page.keyboard.type("too pushy about price");
    await page.screenshot({ path: "test-results/e2e-feedback-form.png", animations: "disabled" });
    await reply.locator("form.feedback-form button[type=submit]").click();
    await expect.poll(() => reply.locator("[data-action=thumbs-down]").getAttribute("aria-pressed")).toBe("true");
    // The rating can come in on the live channel before the request answers; the form closes with the answer.
    await expect.poll(() => reply.locator("form.feedback-form").count()).toBe(0);

    await page.reload();
    await q(page, "button.l").click();
    const again = q(page, ".msg[data-role=assistant]").last();
    await expect.poll(() => again.locator("[data-action=thumbs-down]").getAttribute("aria-pressed")).toBe("true");
    expect(await again.locator("[data-action=thumbs-up]").getAttribute("aria-pressed")).toBe("false");
    expect(errors).toEqual([]);
    await context.close();
  });
});
