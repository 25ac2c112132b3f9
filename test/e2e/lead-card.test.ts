import type { Page } from "playwright-core";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { newPage, useUpstreamDemo } from "../helpers/e2e.ts";
import { streamedStep } from "../helpers/worker/scripted-provider.ts";
import { DEMO_ADMIN_KEY } from "../../worker/demo/index.ts";

/**
 * A sales agent's lead card as a visitor meets it (built bundle, local worker, a provider whose model
 * raises the card): the card appears under the conversation, is filled by keyboard, refuses to send
 * without the visitor's own tick, and once sent thanks them; the worker stores it and the demo site's
 * endpoint receives a signed, verified `lead.captured`. In English and Chinese, axe-clean.
 */
const SITE = "demo-site-key-0001";
const AGENT = "lead-e2e";
const MARK = "[raise the lead card]";
const AFTER = "The card below takes your details.";

const demo = useUpstreamDemo({
  replay: ({ body }) => {
    const offered = ((body.tools as Array<{ function: { name: string } }>) ?? []).map((t) => t.function.name);
    const last = body.messages.filter((m) => m.role === "user").at(-1);
    if (!offered.includes("offer_lead_card") || !String(last?.content ?? "").includes(MARK)) return undefined;
    const step =
      body.messages.at(-1)?.role === "tool"
        ? { content: AFTER }
        : { toolCalls: [{ name: "offer_lead_card", arguments: "{}", id: "call_lead_1" }] };
    const events = streamedStep(step, "chatcmpl-lead").map((c) => `data: ${JSON.stringify(c)}\n\n`);
    return { status: 200, headers: { "content-type": "text/event-stream" }, events: [...events, "data: [DONE]\n\n"] };
  },
});

const both = (en: string, zh: string) => ({ en, "zh-CN": zh });

beforeAll(async () => {
  const agent = {
    id: AGENT,
    name: both("Sales", "销售"),
    description: both("", ""),
    greeting: both("Hi! How can I help?", "您好！有什么可以帮您？"),
    systemPrompt: "You help visitors choose a plan.",
    model: "gpt-4o-mini",
    stages: [
      {
        id: "qualify",
        name: both("Qualify", "了解需求"),
        order: 1,
        instruction: "Raise the lead card when the visitor wants to be contacted.",
        fields: [{ key: "need", label: both("Need", "需求"), type: "string" }],
        next: null,
        transition: "user_confirm",
        actionCards: [
          {
            id: "lead",
            type: "modal",
            lead: true,
            title: both("Talk to our team", "联系我们的团队"),
            form: [
              { key: "name", label: both("Name", "姓名"), type: "string" },
              { key: "email", label: both("E-mail", "电子邮箱"), type: "string" },
              { key: "company", label: both("Company", "公司"), type: "string" },
              { key: "consent", label: both("You may contact me", "可以联系我"), type: "enum", options: ["no", "yes"] },
            ],
          },
        ],
      },
    ],
  };
  const res = await fetch(`${demo.dev.url}/v1/admin/agents?site=${SITE}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-parley-admin-key": DEMO_ADMIN_KEY },
    body: JSON.stringify(agent),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  // The demo site's endpoint is made on the demo page's first look at its deliveries.
  expect((await fetch(`${demo.dev.url}/v1/demo/webhooks`)).status).toBe(200);
});

const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);

/** A page of the site with the sales agent's widget (served in place of a page the demo does not have). */
async function openSalesPage(page: Page) {
  const url = `${demo.dev.url}/lead-e2e.html`;
  await page.route(url, (route) =>
    route.fulfill({
      contentType: "text/html",
      body:
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plans</title></head><body>` +
        `<h1>Plans</h1><script src="/parley.js" data-site-key="${SITE}" data-agent="${AGENT}" async></script>` +
        `</body></html>`,
    }),
  );
  await page.goto(url);
}

async function cardFindings(page: Page): Promise<unknown[]> {
  if (!(await page.evaluate(() => "axe" in window)))
    await page.addScriptTag({ path: resolve("node_modules/axe-core/axe.min.js") });
  return page.evaluate(async () => {
    const res = await (window as any).axe.run(
      { include: [["parley-chat", ".lead-card"]] },
      { resultTypes: ["violations"] },
    );
    return res.violations
      .filter((v: any) => v.impact === "serious" || v.impact === "critical")
      .map((v: any) => ({ id: v.id, targets: v.nodes.map((n: any) => n.target) }));
  });
}

const CASES = [
  { locale: "en-US", email: "ada@example.com", needTick: "Please tick the box", sent: "Thank you." },
  { locale: "zh-CN", email: "li@example.cn", needTick: "请勾选同意", sent: "谢谢。" },
] as const;

describe("the lead card in the chat", () => {
  for (const c of CASES)
    it(`is raised by the agent, sent by keyboard with the visitor's own consent (${c.locale})`, async () => {
      const { context, page, errors } = await newPage(demo.browser, { locale: c.locale, bypassCSP: true });
      await openSalesPage(page);
      await q(page, "button.l").click();
      await q(page, "textarea").click();
      await page.keyboard.type(`Could someone from sales contact me? ${MARK}`);
      await page.keyboard.press("Enter");
      const card = q(page, ".lead-card");
      await card.waitFor({ timeout: 20_000 });
      expect(await card.getAttribute("data-lead")).toBe("open");
      await expect.poll(() => q(page, ".msg[data-role=assistant] .bubble").last().textContent()).toContain(AFTER);
      // The consent box starts unticked: the visitor ticks it themselves.
      const consent = card.locator("input[name=consent]");
      expect(await consent.isChecked()).toBe(false);

      await card.locator("input[name=name]").focus();
      await page.keyboard.type("Ada Lovelace");
      await page.keyboard.press("Tab");
      await page.keyboard.type(c.email);
      await page.keyboard.press("Tab");
      await page.keyboard.type("Analytical Ltd");
      await page.keyboard.press("Tab");
      expect(await consent.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      // Not sent without the tick: the card says why and takes the focus to the box.
      await expect.poll(() => card.locator("[role=alert]").textContent()).toContain(c.needTick);
      expect(await consent.getAttribute("aria-invalid")).toBe("true");
      expect(await consent.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
      await page.screenshot({ path: `test-results/e2e-lead-card-${c.locale}.png` });
      expect(await cardFindings(page)).toEqual([]);
      await page.keyboard.press("Space");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");

      await expect.poll(() => card.getAttribute("data-lead"), { timeout: 10_000 }).toBe("sent");
      expect(await card.locator("[role=status]").textContent()).toBe(
        c.locale === "zh-CN"
          ? `谢谢。团队将通过 ${c.email} 与您联系。`
          : `Thank you. The team will contact you at ${c.email}.`,
      );
      expect(await card.textContent()).toContain(c.sent);
      expect(await cardFindings(page)).toEqual([]);
      // Stored by the worker: a reload shows the card as sent.
      await page.reload();
      await q(page, "button.l").click();
      await expect.poll(() => q(page, ".lead-card").getAttribute("data-lead"), { timeout: 10_000 }).toBe("sent");
      expect(errors).toEqual([]);
      await context.close();
    });

  it("reaches the demo site's endpoint as a signed lead.captured (two leads, two deliveries)", async () => {
    const hooks = async () =>
      ((await (await fetch(`${demo.dev.url}/v1/demo/webhooks`)).json()) as any).deliveries as Array<{
        type: string;
        status: string;
        lastResponse: string | null;
      }>;
    await expect
      .poll(async () => (await hooks()).filter((d) => d.type === "lead.captured" && d.status === "delivered").length, {
        timeout: 20_000,
      })
      .toBe(2);
    const lead = (await hooks()).find((d) => d.type === "lead.captured")!;
    expect(lead.lastResponse).toContain('"verified":true');
  });
});
