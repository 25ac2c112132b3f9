import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEMO_ADMIN_KEY, newPage, useSite } from "../helpers/e2e.ts";
import { watchViolations } from "../helpers/csp-watch.ts";
import { axeFindings, openPage, signInByKeyboard } from "../helpers/console.ts";
import { CONSOLE_SHOTS } from "../helpers/browser.ts";

/**
 * The console's Setup, Agents and Knowledge pages as an owner uses them, on the built
 * bundle under `wrangler dev` in demo mode: a bad origin refused at its field, the embed snippet
 * copied, an agent's greeting changed and seen by a visitor of the demo page, a document added and
 * found by the console's query and by the agent's own knowledge_search; axe-core in both languages.
 */
const demo = useSite();
const SHOTS = CONSOLE_SHOTS;
mkdirSync(SHOTS, { recursive: true });

async function signedIn(opts: Parameters<typeof newPage>[1] = {}) {
  const p = await newPage(demo, opts);
  await signInByKeyboard(p.page, demo.url, DEMO_ADMIN_KEY, demo.siteKey);
  await p.page.getByRole("heading", { level: 1 }).first().waitFor();
  return p;
}

describe("the owner's console: setup, agents, knowledge", () => {
  it("refuses a bad origin at its field, saves a good one, and copies the embed snippet", async () => {
    const { context, page, errors } = await signedIn();
    const watch = await watchViolations(context, page);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: demo.url });
    await openPage(page, "Setup");

    // Keyboard only: add an origin, type a plain-http one, submit with Enter from the field.
    await page.getByRole("button", { name: "Add an origin" }).focus();
    await page.keyboard.press("Enter");
    const third = page.getByLabel("Origin 3", { exact: true });
    await third.focus();
    await page.keyboard.type("http://clinic.example");
    await page.keyboard.press("Enter");
    await page.getByText("http://clinic.example: must start with https://").waitFor();
    expect(await third.getAttribute("aria-invalid")).toBe("true");
    // Focus lands on the field the worker refused, and the error is read with it.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("origin-2");
    expect(await third.getAttribute("aria-describedby")).toContain("origin-2-error");
    await page.getByRole("alert").filter({ hasText: "Some fields need a change" }).waitFor();

    await third.fill("https://clinic.example");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByRole("status").filter({ hasText: "Saved. Every visitor gets it within 30 s." }).waitFor();
    expect(await third.getAttribute("aria-invalid")).toBeNull();
    const site = await page.evaluate(() => fetch("/v1/admin/site").then((r) => r.json()));
    expect(site.site.allowedOrigins).toEqual(["http://127.0.0.1:*", "http://localhost:*", "https://clinic.example"]);

    // The snippet for the chosen agent, copied.
    await page.getByLabel("Agent", { exact: true }).selectOption("medical-qa");
    await page.getByRole("button", { name: "Copy: Script tag (any website)" }).click();
    await page.getByRole("status").filter({ hasText: "Copied" }).first().waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(
      `<script src="${demo.url}/parley.js"\n        data-site-key="${demo.siteKey}" ` +
        `data-agent="medical-qa" async></script>`,
    );
    // The live preview runs the chosen agent in the embed page, framed by the console, when asked.
    expect(await page.locator("iframe.preview").count()).toBe(0);
    await page.getByRole("button", { name: "Show the live preview" }).click();
    const preview = page.frameLocator("iframe.preview");
    await preview.getByText("Hi! Ask me an everyday health question").first().waitFor();
    // The snippets and the preview in one picture for the docs.
    await page.setViewportSize({ width: 1280, height: 1400 });
    await page.getByRole("heading", { name: "Put the chat on your site" }).evaluate((h) => h.scrollIntoView());
    await page.screenshot({ path: `${SHOTS}/setup.png` });

    expect(await watch.events()).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("changes an agent's greeting (errors at the field first), and the demo page's widget shows it", async () => {
    const { context, page, errors } = await signedIn();
    await openPage(page, "Agents");
    await page.getByRole("link", { name: "Edit Skin consult" }).click();
    await page.getByRole("heading", { level: 1, name: "Agent Skin consult" }).waitFor();

    const steps = page.getByLabel("Steps per visitor message");
    await steps.fill("99");
    const greeting = page.getByLabel("Greeting (English)");
    await greeting.fill("Welcome to Dr. Lee's skin clinic! What brings you here today?");
    await page.getByRole("button", { name: "Save agent" }).click();
    await page.getByText("Too big: expected number to be <=20").waitFor();
    expect(await steps.getAttribute("aria-invalid")).toBe("true");

    await steps.fill("6");
    await page.getByRole("button", { name: "Save agent" }).click();
    await page.getByRole("status").filter({ hasText: "Saved. Visitors get it within 30 s." }).waitFor();
    await page.getByRole("button", { name: "Show the live preview" }).click();
    await page.frameLocator("iframe.preview").getByText("Welcome to Dr. Lee's skin clinic!").first().waitFor();
    await page.getByRole("heading", { level: 1 }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/agents.png` });

    const visitor = await context.newPage();
    await visitor.goto(`${demo.url}/`);
    await visitor.locator("parley-chat button.l").click();
    await visitor.getByText("Welcome to Dr. Lee's skin clinic! What brings you here today?").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("adds a document that the console's query and the agent's knowledge_search find", async () => {
    const { context, page, errors } = await signedIn();
    await openPage(page, "Knowledge");
    const title = "Acne routine at our clinic: benzoyl peroxide first (ZX-42)";
    await page.getByLabel("Title").fill(title);
    await page
      .getByLabel("Text")
      .fill("## Our routine\n\nStart **benzoyl peroxide 2.5 %** every other night; adapalene after four weeks.");
    await page.getByLabel("Document language").selectOption("en");
    await page.getByRole("button", { name: "Save document" }).click();
    await page.getByRole("cell", { name: title, exact: true }).waitFor();

    await page.getByLabel("Query").fill("benzoyl peroxide routine");
    await page.getByRole("button", { name: "Search" }).click();
    const firstHit = page.locator("ol.hits li").first();
    await firstHit.getByText(title).waitFor();
    expect(await firstHit.textContent()).toMatch(/score \d+(\.\d+)?/);
    await page.locator("ol.hits").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/knowledge.png` });

    // The skin consult's agent asks knowledge_search about acne; its answer carries the new document.
    const visitor = await context.newPage();
    const toolAnswer = visitor.waitForResponse((r) => r.url().includes("/v1/tools/knowledge_search"));
    await visitor.goto(`${demo.url}/`);
    await visitor.locator("parley-chat button.l").click();
    await visitor.getByRole("button", { name: "How should I care for acne-prone skin?" }).click();
    const hits = (await (await toolAnswer).json()).result.hits.map((h: { title: string }) => h.title);
    expect(hits).toContain(title);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("saves a prompt version, shows the diff side by side, moves production to it and rolls back", async () => {
    const { context, page, errors } = await signedIn();
    await openPage(page, "Prompts");
    await page.getByLabel("Agent", { exact: true }).selectOption("derm-consult");
    await page.getByRole("button", { name: "Show v1" }).waitFor();
    const text = page.getByLabel("Text of version 1");
    await text.fill((await text.inputValue()) + "\nGreet returning patients by name.");
    await page.getByLabel("Note for the new version").fill("greet by name");
    await page.getByRole("button", { name: "Save as a new version" }).click();
    await page.getByRole("status").filter({ hasText: "Saved as version 2." }).waitFor();

    await page.getByLabel("From version").selectOption("1");
    await page.getByLabel("To version").selectOption("2");
    await page.getByRole("button", { name: "Compare" }).click();
    await page.locator("table.diff td.ins", { hasText: "Greet returning patients by name." }).waitFor();
    expect(await page.locator("table.diff td.del").count()).toBe(0);
    await page.locator("table.diff").evaluate((d) => d.scrollIntoView());
    await page.screenshot({ path: `${SHOTS}/prompts.png` });

    await page.getByLabel("Version for production").selectOption("2");
    await page.getByLabel("Why", { exact: true }).fill("try the greeting");
    await page.getByRole("button", { name: "Move production" }).click();
    await page.getByRole("status").filter({ hasText: "Production is now version 2." }).waitFor();
    await page.getByText("production v1 → v2 (owner) try the greeting").waitFor();

    // Rollback: production back to version 1, recorded with its reason.
    await page.getByLabel("Version for production").selectOption("1");
    await page.getByLabel("Why", { exact: true }).fill("roll back");
    await page.getByRole("button", { name: "Move production" }).click();
    await page.getByRole("status").filter({ hasText: "Production is now version 1." }).waitFor();
    const compiled = await page.evaluate(() =>
      fetch("/v1/admin/agents/derm-consult/system-prompt").then((r) => r.json()),
    );
    expect(compiled.text).not.toContain("Greet returning patients by name.");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("runs the strategy desk from a note: the run's scores and steps, the candidate's diff, promoted", async () => {
    const { context, page, errors } = await signedIn();
    // Candidates wait for the owner: auto-promotion off on the Setup page.
    await openPage(page, "Setup");
    await page.getByLabel("Strategy desk: promote passing candidates by itself").uncheck();
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();

    await openPage(page, "Strategy desk");
    await page.getByLabel("Agent", { exact: true }).selectOption("sales-coach");
    await page.getByLabel("Your note for the desk").fill("The coach is too pushy about price");
    await page.getByRole("button", { name: "Add the note" }).click();
    await page.getByText("owner: The coach is too pushy about price").waitFor();
    await page.getByRole("button", { name: "Run now" }).click();
    const row = page.locator("tbody tr").filter({ hasText: "candidate" });
    // Asks for the runs again on each answer until the run has finished with its candidate.
    const runs = (r: { url(): string }) => new URL(r.url()).pathname.endsWith("/runs");
    await expect
      .poll(async () => {
        await Promise.all([page.waitForResponse(runs), page.getByRole("button", { name: "Refresh" }).click()]);
        return row.count();
      })
      .toBe(1);
    expect(await row.textContent()).toContain("70 → 90");
    await row.getByRole("button").click();
    await page.locator("table.diff td.ins").first().waitFor();
    await page.locator("ul.trace").getByText("score=70").first().waitFor();
    await page.getByRole("heading", { name: /: candidate$/ }).evaluate((h) => h.scrollIntoView());
    await page.screenshot({ path: `${SHOTS}/desk.png` });

    await page.getByLabel("Why", { exact: true }).fill("Less pushy reads better");
    await page.getByRole("button", { name: "Promote" }).click();
    await page.getByRole("status").filter({ hasText: "Done: the run is now promoted." }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  // One language a test: ten page loads with axe take most of a minute on a loaded machine.
  it.each(["en-US", "zh-CN"])(
    "has no serious or critical axe findings on Setup, Agents, an agent, Prompts, the desk and Knowledge (%s)",
    async (locale) => {
      const { context, page } = await signedIn({ bypassCSP: true, locale });
      for (const path of ["setup", "agents", "agents/derm-consult", "prompts", "desk", "knowledge"]) {
        await page.goto(`${demo.url}/console/${path}`);
        await page.locator("main h1").waitFor();
        await page.locator("main form").first().waitFor();
        expect(await axeFindings(page), `${path} ${locale}`).toEqual([]);
      }
      await context.close();
    },
  );
});
