import { describe, expect, it } from "vitest";
import { newPage, useDemo } from "../helpers/e2e.ts";
import { signInByKeyboard } from "../helpers/console.ts";
import { DEMO_ADMIN_KEY } from "../../worker/demo/index.ts";
import { CONSOLE_SHOTS } from "../helpers/browser.ts";

/**
 * "Try it" in the console: the owner edits an agent's greeting, saves it as a draft and
 * tries it in the console's draft preview, while the demo page's visitors still get the published
 * greeting; publishing makes the draft what visitors get. Built bundle, `wrangler dev`, demo mode.
 */
const demo = useDemo();

const DRAFT = "A draft hello from Dr. Lee's clinic: what brings you here?";
const PUBLISHED = "Hello! I'm the clinic's skin assistant.";

async function visitorGreeting(page: import("playwright-core").Page) {
  await page.goto(`${demo.dev.url}/`);
  await page.locator("parley-chat button.l").click();
  await page.locator("parley-chat .panel").waitFor();
  return page;
}

describe("the console's try it: an agent's draft", () => {
  it("tries a draft greeting in the console while visitors keep the published one, then publishes it", async () => {
    const { context, page, errors } = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } });
    await signInByKeyboard(page, demo.dev.url, DEMO_ADMIN_KEY);
    await page.goto(`${demo.dev.url}/console/agents/derm-consult`);
    await page.getByRole("heading", { level: 1, name: "Agent Skin consult" }).waitFor();

    await page.getByLabel("Greeting (English)").fill(DRAFT);
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("status").filter({ hasText: "Draft saved." }).waitFor();
    await page.getByRole("button", { name: "Try draft" }).click();
    const frame = page.frameLocator("iframe.draft-preview");
    await frame.getByText(DRAFT).first().waitFor({ timeout: 20_000 });
    await page.locator("iframe.draft-preview").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${CONSOLE_SHOTS}/agent-draft.png` });

    // The demo page's visitor still meets the published agent.
    const visitor = await visitorGreeting(await context.newPage());
    await visitor.getByText(PUBLISHED).first().waitFor({ timeout: 20_000 });
    expect(await visitor.getByText(DRAFT).count()).toBe(0);
    await visitor.close();

    // A reload opens the editor on the saved draft.
    await page.reload();
    await page.getByRole("status").filter({ hasText: "Editing the saved draft" }).waitFor();
    expect(await page.getByLabel("Greeting (English)").inputValue()).toBe(DRAFT);

    await page.getByRole("button", { name: "Publish draft" }).click();
    await page.getByRole("status").filter({ hasText: "Published. Visitors get it within 30 s." }).waitFor();
    const after = await visitorGreeting(await context.newPage());
    await after.getByText(DRAFT).first().waitFor({ timeout: 20_000 });
    expect(errors).toEqual([]);
    await context.close();
  });
});
