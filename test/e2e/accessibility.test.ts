import { resolve } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage, useDemo } from "../helpers/e2e.ts";
import { serveStatic, type StaticServer } from "../helpers/static-server.ts";
import { lowContrastText } from "../helpers/text-contrast.ts";

/**
 * axe-core over every state a visitor reaches, each in the light and the dark theme: a reply that
 * saved advice cards, the advice list, an error, offline, the stage panel, the trace view, and every
 * pressed, selected and disabled state of the controls (each header pill pressed, a rating given, the
 * send button disabled and the stop button while a reply streams, follow-up chips answered). Serious
 * and critical findings fail, with three additions to axe's defaults: the experimental
 * `label-content-name-mismatch` rule (WCAG 2.5.3: a control's accessible name contains its visible
 * text), `target-size` (WCAG 2.2's 2.5.8, off by default in axe 4.14), and every text's contrast
 * computed here over its blended background (text-contrast.ts:
 * axe reports neither a violation nor "needs review" for text on a translucent fill in a shadow root:
 * a translucent badge at 3.6:1 and a pill at 3.93:1 pass axe alone).
 */
const demo = useDemo();
let host: StaticServer;

beforeAll(async () => {
  const tag =
    `<script src="${demo.dev.url}/parley.js" ` +
    `data-site-key="demo-site-key-0001" data-agent="medical-qa" ` +
    `data-debug="true" async></script>`;
  host = await serveStatic({
    pages: {
      "/debug":
        `<!doctype html><html lang="en"><head><title>Host</title></head><body><h1>H` + `ost</h1>${tag}</body></html>`,
    },
  });
});
afterAll(() => host?.close());

const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);
// axe-core is injected inline: the demo pages' CSP (Trusted Types) would refuse it.
const open = () => newPage(demo.browser, { bypassCSP: true });

interface Finding {
  id: string;
  impact: string;
  targets: unknown[];
}

async function findings(page: Page): Promise<Finding[]> {
  if (!(await page.evaluate(() => "axe" in window)))
    await page.addScriptTag({ path: resolve("node_modules/axe-core/axe.min.js") });
  return page.evaluate(async () => {
    const axe = (window as any).axe;
    const res = await axe.run(
      { include: [["parley-chat", ".root"]] },
      {
        resultTypes: ["violations", "incomplete"],
        rules: { "label-content-name-mismatch": { enabled: true }, "target-size": { enabled: true } },
      },
    );
    const serious = (v: any) => v.impact === "serious" || v.impact === "critical";
    const shown = (v: any) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n: any) => n.target) });
    const headerContrast = res.incomplete
      .filter((v: any) => v.id === "color-contrast")
      // Shadow DOM targets read [["parley-chat", ".badge"]]: the header's elements are matched by their markup.
      .map((v: any) => ({ ...v, nodes: v.nodes.filter((n: any) => /class="(badge|title|sub|pill)/.test(n.html)) }))
      .filter((v: any) => v.nodes.length);
    return [...res.violations.filter(serious), ...headerContrast].map(shown);
  });
}

/** Every state a check saw: each control by its action (or class) with what it was (`stages:pressed`). */
const statesSeen = new Set<string>();

function controlStates(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.querySelector("parley-chat")?.shadowRoot;
    const controls = [...(root?.querySelectorAll<HTMLButtonElement>("button, [role=tab], [role=option]") ?? [])];
    return controls.flatMap((el) => {
      const name = el.dataset.action ?? el.className.split(" ").filter(Boolean).join(".");
      return [
        el.getAttribute("aria-pressed") === "true" && `${name}:pressed`,
        el.getAttribute("aria-selected") === "true" && `${name}:selected`,
        el.disabled && `${name}:disabled`,
      ].filter((x): x is string => !!x);
    });
  });
}

/** The same state in the light theme, then the dark one (the widget's default theme follows the system). */
async function bothThemes(page: Page, state: string): Promise<Record<string, Finding[]>> {
  const out: Record<string, Finding[]> = {};
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForTimeout(50);
    const low = await lowContrastText(page);
    out[`${state} (${colorScheme})`] = [
      ...(await findings(page)),
      ...low.map((l) => ({ id: "text-contrast", impact: `${l.ratio}:1 < ${l.needed}:1`, targets: [l.target] })),
    ];
    for (const control of await controlStates(page)) statesSeen.add(control);
  }
  await page.emulateMedia({ colorScheme: "light" });
  return out;
}

async function ask(page: Page, text: string) {
  await q(page, "textarea").fill(text);
  await q(page, "textarea").press("Enter");
  await q(page, "button.send.stop").waitFor();
  await q(page, "button.send.stop").waitFor({ state: "detached", timeout: 30_000 });
}

describe("accessibility of every state a visitor reaches", () => {
  it("a reply with advice cards saved, the advice list, an error and offline, in both themes", async () => {
    const { context, page, errors } = await open();
    await page.goto(demo.dev.url + "/");
    await q(page, "button.l").click();
    await q(page, ".panel").waitFor();
    await ask(page, "I have a red itchy rash on my arm");
    await expect.poll(() => q(page, "article.card").count(), { timeout: 30_000 }).toBe(2);
    const seen = await bothThemes(page, "advice cards saved");

    await q(page, 'button[data-action="advice"]').click();
    await q(page, ".advice-list, .list").first().waitFor();
    Object.assign(seen, await bothThemes(page, "advice list"));
    await q(page, 'button[data-action="advice"]').click();

    await page.route("**/v1/chat/completions", (route) =>
      route.fulfill({
        status: 429,
        contentType: "application/json",
        headers: { "retry-after": "5" },
        body: '{"error":{"code":"rate_limited","message":"slow down"}}',
      }),
    );
    await q(page, "textarea").fill("And on my leg?");
    await q(page, "textarea").press("Enter");
    await q(page, ".error").waitFor();
    Object.assign(seen, await bothThemes(page, "error"));
    await page.unroute("**/v1/chat/completions");

    await context.setOffline(true);
    await q(page, ".offline").waitFor();
    Object.assign(seen, await bothThemes(page, "offline"));
    await page.screenshot({ path: "test-results/e2e-a11y-offline.png" });
    await context.setOffline(false);

    for (const [state, found] of Object.entries(seen)) expect(found, state).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the stage panel and the trace view, in both themes", async () => {
    const { context, page, errors } = await open();
    await page.goto(demo.dev.url + "/protocol.html");
    await q(page, "button.l").click();
    await q(page, ".panel").waitFor();
    await ask(page, "Does a daily emollient prevent eczema flares in children?");
    await q(page, 'button[data-action="stages"]').click();
    await q(page, ".stage-panel").waitFor();
    const seen = await bothThemes(page, "stage panel");
    await page.screenshot({ path: "test-results/e2e-a11y-stages.png" });

    const debug = await open();
    await debug.page.goto(host.url + "/debug");
    await q(debug.page, "button.l").click();
    await q(debug.page, ".panel").waitFor();
    await ask(debug.page, "How much ibuprofen can I take for a headache?");
    await q(debug.page, 'button[data-action="trace"]').click();
    await q(debug.page, ".trace-view table, .trace-view .status").first().waitFor();
    Object.assign(seen, await bothThemes(debug.page, "trace view"));

    for (const [state, found] of Object.entries(seen)) expect(found, state).toEqual([]);
    expect([...errors, ...debug.errors]).toEqual([]);
    await debug.context.close();
    await context.close();
  });

  it("every pressed, selected and disabled state of the controls, in both themes", async () => {
    const { context, page, errors } = await open();
    /** Holds the worker's answers to `pattern` until `release`: the control stays in its busy state meanwhile. */
    const hold = async (pattern: string) => {
      let release = () => {};
      const gate = new Promise<void>((r) => (release = r));
      await page.route(pattern, async (route) => (await gate, route.continue()));
      return release;
    };
    await page.goto(demo.dev.url + "/");
    await q(page, "button.l").click();
    await q(page, ".panel").waitFor();
    const seen = await bothThemes(page, "send disabled (nothing typed)");

    let release = await hold("**/v1/chat/completions");
    await q(page, "textarea").fill("I have a red itchy rash on my arm");
    await q(page, "textarea").press("Enter");
    await q(page, "button.send.stop").waitFor();
    Object.assign(seen, await bothThemes(page, "stop (a reply on its way)"));
    await release();
    await q(page, "button.send.stop").waitFor({ state: "detached", timeout: 30_000 });

    await q(page, 'button[data-action="thumbs-up"]').last().click();
    await expect
      .poll(() => q(page, 'button[data-action="thumbs-up"]').last().getAttribute("aria-pressed"))
      .toBe("true");
    Object.assign(seen, await bothThemes(page, "a reply rated"));

    await ask(page, "I have a question about a mole");
    await q(page, ".followup .chip").first().waitFor();
    release = await hold("**/v1/chat/completions");
    await q(page, ".followup .chip").first().click();
    await q(page, ".followup .chip:disabled").first().waitFor();
    Object.assign(seen, await bothThemes(page, "follow-up chips answered"));
    await release();
    await q(page, "button.send.stop").waitFor({ state: "detached", timeout: 30_000 });

    const protocol = await open();
    await protocol.page.goto(demo.dev.url + "/protocol.html");
    await q(protocol.page, "button.l").click();
    await ask(protocol.page, "Does a daily emollient prevent eczema flares in children?");
    await q(protocol.page, 'button[data-action="stages"]').click();
    await q(protocol.page, ".stage-panel").waitFor();
    let releaseStage = () => {};
    const stageGate = new Promise<void>((r) => (releaseStage = r));
    await protocol.page.route("**/stages/*/complete", async (route) => (await stageGate, route.continue()));
    await q(protocol.page, "button.send.complete").click();
    await q(protocol.page, "button.send.complete:disabled").waitFor();
    Object.assign(seen, await bothThemes(protocol.page, "complete stage pending"));
    releaseStage();

    for (const [state, found] of Object.entries(seen)) expect(found, state).toEqual([]);
    // With the two tests before this one: each pill pressed, a rating, the busy and empty composer, a stage pending.
    expect([...statesSeen].sort()).toEqual(
      expect.arrayContaining([
        "advice:pressed",
        "chip:disabled",
        "send.complete:disabled",
        "send:disabled",
        "stages:pressed",
        "thumbs-up:pressed",
        "trace:pressed",
      ]),
    );
    expect([...errors, ...protocol.errors]).toEqual([]);
    await protocol.context.close();
    await context.close();
  });
});
