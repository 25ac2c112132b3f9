import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useSite } from "../helpers/e2e.ts";
import { downloaded } from "../helpers/e2e-waits.ts";

/** A researcher designs a protocol with the protocol-designer preset, from question to endpoints. */
const demo = useSite();

const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);
const lastReply = (page: Page) => q(page, ".msg[data-role=assistant] .bubble").last();

async function say(page: Page, text: string, expectInReply: string) {
  await q(page, "textarea").click();
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
  await expect.poll(() => lastReply(page).textContent()).toContain(expectInReply);
  await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
}

async function panel(page: Page, open: boolean) {
  const pill = q(page, 'button[data-action="stages"]');
  if ((await pill.getAttribute("aria-pressed")) !== String(open)) await pill.click();
  if (open) await q(page, ".stage-panel").waitFor();
}

const field = (page: Page, stage: string, key: string) =>
  q(page, `section[data-stage="${stage}"] [data-field="${key}"]`);

describe("protocol designer", () => {
  it(
    "goes from scientific question to endpoints: edits, a blocked completion, " + "action cards, summary, reload",
    async () => {
      const context = await demo.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(demo.url + "/protocol.html");
      // The host page hears every stage change.
      await page.waitForFunction(() => "Parley" in window);
      await page.evaluate(() => {
        const w = window as any;
        w.__stages = [];
        w.Parley.on("stage", (s: { current: string | null }) => w.__stages.push(s.current));
      });
      await q(page, "button.l").click();
      await q(page, ".panel").waitFor();

      // 1. Scientific question: extracted by the model, confirmed by the researcher.
      await say(page, "Does a daily emollient prevent eczema flares in children?", "research question");
      await panel(page, true);
      expect(await field(page, "question", "research_question").textContent()).toContain(
        "Does daily emollient use reduce eczema flares",
      );
      await q(page, 'section[data-stage="question"] button.complete').click();
      await q(page, 'section[data-stage="pico"]').waitFor();
      await panel(page, false);

      // 2. PICO: the comparison is missing, so completing is blocked until it is filled in the panel.
      await say(
        page,
        "Children aged 2 to 10 with moderate eczema, a daily emollient, and the number of flares over 6 months",
        "comparison",
      );
      await panel(page, true);
      await q(page, 'section[data-stage="pico"] button.complete').click();
      const checks = q(page, 'section[data-stage="pico"] .checks');
      await expect.poll(() => checks.textContent()).toContain("Comparison is required");
      expect(await checks.textContent()).toContain("Fix these before you go on");
      await field(page, "pico", "comparison").locator("button").click();
      await field(page, "pico", "comparison").locator("input").fill("Usual care without a daily emollient");
      await field(page, "pico", "comparison").locator("button[type=submit]").click();
      await expect
        .poll(() => field(page, "pico", "comparison").textContent())
        .toContain("Usual care without a daily emollient");
      // The registry card runs through the worker and its result lands in the context.
      await q(page, '[data-card="registry"] button').click();
      await expect.poll(() => field(page, "pico", "similar_trials").locator("dd span").textContent()).toMatch(/^\d+$/);
      await q(page, 'section[data-stage="pico"] button.complete').click();
      await q(page, 'section[data-stage="design"]').waitFor();
      await panel(page, false);

      // 3. Design: a randomised trial goes on to sample size by itself (condition transition).
      await say(
        page,
        "A randomised controlled trial, 1:1, with blinded outcome assessors",
        "randomised controlled trial",
      );
      await panel(page, true);
      await q(page, 'section[data-stage="sample_size"]').waitFor();

      // 4. Sample size from the calculator card; the stage completes by itself (auto transition).
      await q(page, '[data-card="calculator"] button').click();
      const form = q(page, '[data-card="calculator"] form');
      await form.locator('input[name="p1"]').fill("0.4");
      await form.locator('input[name="p2"]').fill("0.25");
      await form.locator('input[name="dropout"]').fill("0.1");
      await form.locator("button[type=submit]").click();
      await q(page, 'section[data-stage="endpoints"]').waitFor();
      expect(await field(page, "sample_size", "n_per_group").locator("dd span").textContent()).toBe("152");
      expect(await field(page, "sample_size", "n_enrol").locator("dd span").textContent()).toBe("338");
      await page.screenshot({ path: "test-results/e2e-protocol-panel.png" });
      await panel(page, false);

      // 5. Endpoints, then complete: the summary can be downloaded.
      await say(
        page,
        "Primary endpoint: number of flares over 6 months; secondary: EASI score and quality of life",
        "Endpoints recorded",
      );
      await panel(page, true);
      await q(page, 'section[data-stage="endpoints"] button.complete').click();
      await q(page, ".summary").waitFor();
      const [download] = await Promise.all([page.waitForEvent("download"), q(page, ".summary button").nth(1).click()]);
      const md = await downloaded(download);
      expect(md).toContain("# Protocol designer");
      expect(md).toContain("**Comparison:** Usual care without a daily emollient");
      expect(md).toContain("**Per group:** 152");
      expect(md).toContain("**Primary endpoint:** Number of eczema flares over 6 months");
      await page.screenshot({ path: "test-results/e2e-protocol-summary.png", animations: "disabled" });
      expect(await page.evaluate(() => (window as any).__stages)).toEqual([
        "question",
        "pico",
        "design",
        "sample_size",
        "endpoints",
        null,
      ]);

      // Reload: every stage and value is still there.
      await page.reload();
      await q(page, "button.l").click();
      await panel(page, true);
      expect(await q(page, 'button[data-action="stages"]').textContent()).toBe("Back");
      expect(await q(page, ".progress li.done").count()).toBe(5);
      expect(await field(page, "pico", "comparison").textContent()).toContain("Usual care without a daily emollient");
      expect(await field(page, "sample_size", "n_total").locator("dd span").textContent()).toBe("304");
      await q(page, ".summary").waitFor();
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
