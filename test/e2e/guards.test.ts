import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newPage, useDemoSite } from "../helpers/e2e.ts";

/**
 * The emergency guard as a visitor meets it (built bundle, local worker, demo model): the urgent
 * card is pinned above the conversation before any reply text, even when the scripted model says
 * there is nothing to worry about; Chinese and the crisis variant; an agent without the guard.
 */
const demo = useDemoSite();

const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);

/** Records, inside the page, when the card and when the first reply text appeared. */
function watchOrder(page: Page) {
  return page.evaluate(() => {
    const w = window as unknown as { order: string[] };
    w.order = [];
    const root = document.querySelector("parley-chat")!.shadowRoot!;
    new MutationObserver(() => {
      if (!w.order.includes("card") && root.querySelector(".escalation")) w.order.push("card");
      const text = root.querySelector(".msg[data-role=assistant]:not(:first-child) .bubble")?.textContent?.trim();
      if (!w.order.includes("text") && text) w.order.push("text");
    }).observe(root, { subtree: true, childList: true, characterData: true });
  });
}

async function openPanel(page: Page, path: string) {
  await page.goto(demo.url + path);
  await q(page, "button.l").click();
  await q(page, ".panel").waitFor();
  await expect.poll(() => q(page, ".msg[data-role=assistant]").count()).toBeGreaterThan(0);
}

async function send(page: Page, text: string) {
  await q(page, "textarea").click();
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

describe("sales coach tools in the browser", () => {
  it("a quote goes through price_calculator on the worker; the answer gives its exact total", async () => {
    const { context, page, errors } = await newPage(demo);
    const tools: Array<[string, number]> = [];
    page.on("response", (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith("/v1/tools/")) tools.push([path.slice("/v1/tools/".length), r.status()]);
    });
    await openPanel(page, "/sales.html");
    await send(page, "Can you prepare a quote for 120 tubes of barrier cream for the clinic?");
    const answer = q(page, ".msg[data-role=assistant] .bubble").last();
    await expect.poll(() => answer.textContent()).toContain("2,098.95");
    await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
    // The quote is shown to the rep as a card the worker built from the text that passed compliance_check.
    const card = q(page, '.advice[data-advice-id^="react_"]');
    await card.waitFor();
    // The quote runs once on the worker; the turn's final answer (not its tool step) is checked once.
    expect(tools.filter(([name]) => name !== "compliance_check")).toEqual([["price_calculator", 200]]);
    await expect.poll(() => tools.filter(([name]) => name === "compliance_check")).toEqual([["compliance_check", 200]]);
    expect(await card.locator(".cat").textContent()).toBe("quote");
    expect(await card.locator(".card-body").textContent()).toContain("Total 2098.95");
    expect(await card.textContent()).toContain("Passed compliance_check on this exact text.");
    expect(await q(page, ".escalation").count()).toBe(0);
    await page.screenshot({ path: "test-results/e2e-sales-quote.png" });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("emergency guard in the browser", () => {
  it("the page's signed-in rep reads their own customer's profile through profile_reader", async () => {
    const { context, page, errors } = await newPage(demo);
    const tools: Array<[string, number]> = [];
    page.on("response", (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith("/v1/tools/")) tools.push([path.slice("/v1/tools/".length), r.status()]);
    });
    await openPanel(page, "/sales.html");
    // The demo page carries rep-ana's identity as a host's backend would render it: a signed JWT.
    const identity = await page.locator('script[src="/parley.js"]').getAttribute("data-identity");
    expect(identity).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await send(page, "Brief me on Sunrise Dermatology before my visit");
    const answer = q(page, ".msg[data-role=assistant] .bubble").last();
    await expect.poll(() => answer.textContent()).toContain("Dr Priya Shah");
    await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
    expect(tools.filter(([name]) => name === "profile_reader")).toEqual([["profile_reader", 200]]);
    await page.screenshot({ path: "test-results/e2e-sales-profile.png" });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("Q&A desk: the card comes before the model's text, which says there is nothing to worry about", async () => {
    const { context, page, errors } = await newPage(demo);
    await openPanel(page, "/qa.html");
    await watchOrder(page);
    await send(page, "I have this pressure in my chest, should I worry?");
    const card = q(page, ".escalation");
    await card.waitFor();
    await expect
      .poll(() => q(page, ".msg[data-role=assistant] .bubble").last().textContent())
      .toContain("nothing to worry about");
    await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
    expect(await page.evaluate(() => (window as unknown as { order: string[] }).order)).toEqual(["card", "text"]);
    expect(await card.getAttribute("data-variant")).toBe("emergency");
    expect(await card.getAttribute("data-category")).toBe("cardiac");
    expect(await card.getAttribute("role")).toBe("alert");
    expect(await card.locator(".esc-title").textContent()).toBe("This may be an emergency");
    const call = card.locator("a.esc-call").first();
    expect(await call.getAttribute("href")).toMatch(/^tel:(911|999|112|120)$/);
    // Pinned: above the conversation, not inside it, and still in view at the top of the panel.
    const [cardBox, listBox] = await Promise.all([card.boundingBox(), q(page, ".list").boundingBox()]);
    expect(cardBox!.y + cardBox!.height).toBeLessThanOrEqual(listBox!.y + 1);
    await page.screenshot({ path: "test-results/e2e-guard-qa.png" });
    // It stays after a reload: it is in the session.
    await page.reload();
    await q(page, "button.l").click();
    await q(page, ".escalation").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("clinic, in Chinese: the crisis variant listens, gives the crisis line first and no first aid", async () => {
    const { context, page, errors } = await newPage(demo, { locale: "zh-CN" });
    await openPanel(page, "/");
    await watchOrder(page);
    await send(page, "我真的不想活了，每天都很痛苦");
    const card = q(page, ".escalation");
    await card.waitFor();
    expect(await card.getAttribute("data-variant")).toBe("crisis");
    expect(await card.locator(".esc-title").textContent()).toBe("你不必独自面对这些");
    expect(await card.locator(".esc-body").textContent()).not.toMatch(/按压|心肺复苏|催吐|坐下/);
    // The local demo's runtime reports a US country for this machine: the visitor's locale (zh-CN) decides.
    expect(await card.locator("a.esc-call").allTextContents()).toEqual(["12356", "120"]);
    await expect.poll(() => page.evaluate(() => (window as unknown as { order: string[] }).order[0])).toBe("card");
    await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
    await page.screenshot({ path: "test-results/e2e-guard-crisis-zh.png" });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("Q&A desk in Chinese: a stroke escalates with the card in Chinese", async () => {
    const { context, page, errors } = await newPage(demo, { locale: "zh-CN" });
    await openPanel(page, "/qa.html");
    await send(page, "我爸突然嘴歪了，说话也含糊不清");
    const card = q(page, ".escalation");
    await card.waitFor();
    expect(await card.getAttribute("data-category")).toBe("stroke");
    expect(await card.locator(".esc-title").textContent()).toBe("这可能是紧急情况");
    expect(await card.locator("a.esc-call").allTextContents()).toEqual(["120"]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("clinic: every advice card carries the site's disclaimer, in the conversation and the advice list", async () => {
    const { context, page, errors } = await newPage(demo);
    await openPanel(page, "/");
    await send(page, "I have a red itchy rash on my arm");
    const cards = q(page, ".list article.advice");
    await expect.poll(() => cards.count()).toBe(2);
    await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
    for (const i of [0, 1]) expect(await cards.nth(i).locator(".disclaimer").textContent()).toMatch(/not a diagnosis/);
    await q(page, 'button[data-action="advice"]').click();
    await expect.poll(() => q(page, ".advice-list article.advice .disclaimer").count()).toBe(2);
    await page.screenshot({ path: "test-results/e2e-guard-advice-disclaimer.png" });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("sales coach (no guard): an ordinary message gets no card", async () => {
    const { context, page, errors } = await newPage(demo);
    await openPanel(page, "/sales.html");
    await send(page, "A clinic asks whether our moisturiser suits eczema patients");
    await expect.poll(() => q(page, ".msg[data-role=assistant]").count()).toBeGreaterThan(1);
    await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
    expect(await q(page, ".escalation").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
