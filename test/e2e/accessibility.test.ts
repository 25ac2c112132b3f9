import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage, useDemo } from "../helpers/e2e.ts";
import { serveStatic, type StaticServer } from "../helpers/static-server.ts";
import { lowContrastText } from "../helpers/text-contrast.ts";

/**
 * axe-core over every state a visitor reaches, each in the light and the dark theme: a reply that
 * saved advice cards, the advice list, an error, offline, the stage panel, the trace view, and every
 * pressed, selected and disabled state of every control (CONTROL_STATES: each header pill pressed,
 * ratings given and on their way, the empty composer, the stop button while a reply streams, follow-up
 * chips answered, a stage completing and an action card running, a visit being booked and cancelled, a
 * person asked for and a contact left, consent being recorded). Serious
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

/**
 * Every widget file with a control that can be pressed, selected or disabled, and its states that the
 * tests below visit: a control by its region and its action or class (`header/stages:pressed`). A file
 * that gains such a control fails the last test until its states are listed here and visited.
 */
const CONTROL_STATES: Record<string, string[]> = {
  "widget/ui/header.tsx": [
    "header/stages:pressed",
    "header/advice:pressed",
    "header/trace:pressed",
    "header/privacy:pressed",
  ],
  "widget/ui/feedback.tsx": [
    "thumbs-up:pressed",
    "thumbs-down:pressed",
    "thumbs-up:disabled",
    "thumbs-down:disabled",
    "feedback/send.small:disabled",
  ],
  "widget/ui/composer.tsx": ["composer/send:disabled"],
  "widget/ui/reply.tsx": ["followup/chip:disabled"],
  "widget/ui/stage-panel.tsx": ["stage/send.complete:disabled"],
  "widget/ui/action-card.tsx": ["action-card/chip:disabled"],
  "widget/ui/booking-card.tsx": ["booking/chip:disabled", "booking/bk-link:disabled"],
  "widget/ui/takeover.tsx": ["takeover/ask-person:disabled", "takeover/chip:disabled"],
  "widget/privacy/privacy-kit.tsx": ["consent/agree:disabled"],
};

/** Every state a check saw, named as in CONTROL_STATES; and every control seen that can be pressed at all. */
const statesSeen = new Set<string>();
const pressable = new Set<string>();

function controlStates(page: Page): Promise<{ states: string[]; pressable: string[] }> {
  return page.evaluate(() => {
    const root = document.querySelector("parley-chat")?.shadowRoot;
    const controls = [...(root?.querySelectorAll<HTMLButtonElement>("button, [role=tab], [role=option]") ?? [])];
    // The innermost first: an action card sits in a stage, a follow-up in a reply.
    const regions: Array<[string, string]> = [
      ["[data-booking]", "booking"],
      [".takeover", "takeover"],
      ["[data-consent]", "consent"],
      [".feedback-form", "feedback"],
      [".card.action", "action-card"],
      [".followup", "followup"],
      ["section.stage", "stage"],
      [".composer", "composer"],
      [".head", "header"],
    ];
    const nameOf = (el: HTMLElement) => {
      const region = regions.find(([sel]) => el.closest(sel))?.[1];
      const name = el.dataset.action ?? el.className.split(" ").filter(Boolean).join(".");
      return region ? `${region}/${name}` : name;
    };
    return {
      states: controls.flatMap((el) =>
        [
          el.getAttribute("aria-pressed") === "true" && `${nameOf(el)}:pressed`,
          el.getAttribute("aria-selected") === "true" && `${nameOf(el)}:selected`,
          el.disabled && `${nameOf(el)}:disabled`,
        ].filter((x): x is string => !!x),
      ),
      pressable: controls.filter((el) => el.hasAttribute("aria-pressed")).map(nameOf),
    };
  });
}

/** Widget sources with a control whose state is pressed, selected or disabled. */
function statefulSources(dir = "widget"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return statefulSources(path);
    if (!e.name.endsWith(".tsx")) return [];
    return /\s(disabled|aria-pressed|aria-selected)=\{/.test(readFileSync(path, "utf8")) ? [path] : [];
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
    const controls = await controlStates(page);
    for (const state of controls.states) statesSeen.add(state);
    for (const name of controls.pressable) pressable.add(name);
  }
  await page.emulateMedia({ colorScheme: "light" });
  return out;
}

/** Holds the worker's answers to `pattern` until the returned release: a control stays busy meanwhile. */
async function hold(page: Page, pattern: string): Promise<() => void> {
  let release = () => {};
  const gate = new Promise<void>((r) => (release = r));
  await page.route(pattern, async (route) => (await gate, route.continue()));
  return () => release();
}

const SITE = "demo-site-key-0001";

/** The demo site's settings as its owner reads and writes them (demo mode's admin key). */
async function siteSettings(url: string, settings?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}/v1/admin/site?site=${SITE}`, {
    method: settings ? "PUT" : "GET",
    headers: { "x-parley-admin-key": "demo-admin-key-0001", "content-type": "application/json" },
    body: settings && JSON.stringify(settings),
  });
  if (!res.ok) throw new Error(`site settings: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { site: Record<string, unknown> }).site;
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
    await page.goto(demo.dev.url + "/");
    await q(page, "button.l").click();
    await q(page, ".panel").waitFor();
    const seen = await bothThemes(page, "send disabled (nothing typed)");

    let release = await hold(page, "**/v1/chat/completions");
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
    release = await hold(page, "**/v1/chat/completions");
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
    const releaseStage = await hold(protocol.page, "**/stages/*/complete");
    await q(protocol.page, "button.send.complete").click();
    await q(protocol.page, "button.send.complete:disabled").waitFor();
    Object.assign(seen, await bothThemes(protocol.page, "complete stage pending"));
    releaseStage();

    // The next stage's action card, run by the worker: its button waits for the answer.
    await q(protocol.page, 'section.stage.current[data-stage="pico"] [data-card="registry"] button').waitFor();
    const releaseCard = await hold(protocol.page, "**/actions/*");
    await q(protocol.page, '[data-card="registry"] button').click();
    await q(protocol.page, '[data-card="registry"] button:disabled').waitFor();
    Object.assign(seen, await bothThemes(protocol.page, "an action card running"));
    releaseCard();

    for (const [state, found] of Object.entries(seen)) expect(found, state).toEqual([]);
    expect([...errors, ...protocol.errors]).toEqual([]);
    await protocol.context.close();
    await context.close();
  });

  it("a reply rated down and a rating on its way, and the visitor's own data, in both themes", async () => {
    const { context, page, errors } = await open();
    await page.goto(demo.dev.url + "/");
    await q(page, "button.l").click();
    await q(page, ".panel").waitFor();
    await ask(page, "I have a red itchy rash on my arm");

    await q(page, 'button[data-action="thumbs-down"]').last().click();
    await q(page, ".feedback-form textarea").fill("Too vague about the cream");
    const release = await hold(page, "**/feedback");
    await q(page, ".feedback-form button[type=submit]").click();
    await q(page, ".feedback-form button[type=submit]:disabled").waitFor();
    const seen = await bothThemes(page, "a rating on its way");
    release();
    await expect
      .poll(() => q(page, 'button[data-action="thumbs-down"]').last().getAttribute("aria-pressed"))
      .toBe("true");
    Object.assign(seen, await bothThemes(page, "a reply rated down"));

    await q(page, 'button[data-action="privacy"]').click();
    await q(page, 'button[data-action="privacy"][aria-pressed="true"]').waitFor();
    Object.assign(seen, await bothThemes(page, "the visitor's own data"));

    for (const [state, found] of Object.entries(seen)) expect(found, state).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a visit being booked, then being cancelled, in both themes", async () => {
    const { context, page, errors } = await open();
    await page.goto(demo.dev.url + "/");
    await q(page, "button.l").click();
    await q(page, ".panel").waitFor();
    await ask(page, "I'd like to book a visit");
    const card = q(page, ".booking");
    await card.locator("button[data-start]").first().click();
    await card.locator("input").first().fill("Ana Silva");
    await card.locator("input").nth(1).fill("ana@example.com");
    let release = await hold(page, "**/v1/tools/book_slot");
    await card.locator("button[type=submit]").click();
    await card.locator("button.chip:disabled").first().waitFor();
    const seen = await bothThemes(page, "a visit being booked");
    release();

    await expect.poll(() => card.getAttribute("data-booking"), { timeout: 10_000 }).toBe("booked");
    release = await hold(page, "**/v1/tools/cancel_booking");
    await card.locator("button.bk-link").click();
    await card.locator("button.bk-link:disabled").waitFor();
    Object.assign(seen, await bothThemes(page, "a visit being cancelled"));
    release();
    await expect.poll(() => card.getAttribute("data-booking"), { timeout: 10_000 }).toBe("cancelled");

    for (const [state, found] of Object.entries(seen)) expect(found, state).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a person asked for, a contact left, and consent being recorded, in both themes", async () => {
    const settings = await siteSettings(demo.dev.url);
    const consent = {
      text: { en: "We keep this chat for 90 days.", "zh-CN": "我们将保存此对话 90 天。" },
      privacyUrl: "https://clinic.example/privacy",
      version: "1",
    };
    try {
      // A site that hands conversations to its staff offers every agent ask_for_person; nobody is on the
      // Live page, so the visitor is offered the contact form.
      await siteSettings(demo.dev.url, { ...settings, takeover: { enabled: true } });
      const { context, page, errors } = await open();
      await page.goto(demo.dev.url + "/");
      await q(page, "button.l").click();
      await q(page, ".panel").waitFor();
      await ask(page, "Tell me about sunscreen");
      let release = await hold(page, "**/person");
      await q(page, '[data-action="ask-person"]').click();
      await q(page, '[data-action="ask-person"]:disabled').waitFor();
      const seen = await bothThemes(page, "a person asked for");
      release();

      const form = q(page, '[data-takeover="unavailable"]');
      await form.locator("input").nth(1).fill("ana@example.com");
      release = await hold(page, "**/contact");
      await form.locator("button[type=submit]").click();
      await form.locator("button[type=submit]:disabled").waitFor();
      Object.assign(seen, await bothThemes(page, "a contact being left"));
      release();
      await q(page, '[data-takeover="contact-left"]').waitFor();
      await context.close();

      // A site that asks consent: the visitor agrees and writes; a new version of the notice is asked at
      // their next message, and agreeing to it in the open conversation waits for the worker's record.
      await siteSettings(demo.dev.url, { ...settings, consent });
      const visitor = await open();
      await visitor.page.goto(demo.dev.url + "/");
      await q(visitor.page, "button.l").click();
      await q(visitor.page, 'button[data-action="agree"]').click();
      await ask(visitor.page, "Tell me about sunscreen");
      await siteSettings(demo.dev.url, { ...settings, consent: { ...consent, version: "2" } });
      await q(visitor.page, "textarea").fill("And for children?");
      await q(visitor.page, "textarea").press("Enter");
      await q(visitor.page, '[data-consent="2"]').waitFor();
      release = await hold(visitor.page, "**/consent");
      await q(visitor.page, 'button[data-action="agree"]').click();
      await q(visitor.page, 'button[data-action="agree"]:disabled').waitFor();
      Object.assign(seen, await bothThemes(visitor.page, "consent being recorded"));
      release();
      await q(visitor.page, "[data-consent]").waitFor({ state: "detached" });

      for (const [state, found] of Object.entries(seen)) expect(found, state).toEqual([]);
      expect([...errors, ...visitor.errors]).toEqual([]);
      await visitor.context.close();
    } finally {
      await siteSettings(demo.dev.url, settings);
    }
  });

  it("visited every pressed, selected and disabled state of every control (the tests above, in order)", () => {
    // Each widget file with such a control is listed; a new one fails here until its states are visited.
    expect(statefulSources().sort()).toEqual(Object.keys(CONTROL_STATES).sort());
    const wanted = Object.values(CONTROL_STATES).flat();
    expect(wanted.filter((state) => !statesSeen.has(state))).toEqual([]);
    // Any control seen that can be pressed was seen pressed too.
    expect([...pressable].filter((name) => !statesSeen.has(`${name}:pressed`))).toEqual([]);
  });
});
