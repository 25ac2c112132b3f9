import type { Page } from "playwright-core";
import type { DemoScript } from "../../worker/demo/index.ts";
import { GENERIC_SCRIPT } from "./fake-upstream.ts";

/** A sales agent whose only stage has a lead card; a test site installs it through the admin API. */
export const LEAD_AGENT_ID = "lead-e2e";
/** In the visitor's message: the scripted model raises the lead card, then says LEAD_AFTER. */
export const LEAD_MARK = "[raise the lead card]";
export const LEAD_AFTER = "The card below takes your details.";

const both = (en: string, zh: string) => ({ en, "zh-CN": zh });

export const LEAD_AGENT = {
  id: LEAD_AGENT_ID,
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

/** The run's provider script for a site with the lead agent: LEAD_MARK raises the card. */
export const LEAD_SCRIPT: DemoScript = {
  ...GENERIC_SCRIPT,
  turns: [
    {
      when: [LEAD_MARK],
      steps: [{ toolCalls: [{ name: "offer_lead_card", arguments: {} }] }, { content: LEAD_AFTER }],
    },
    ...GENERIC_SCRIPT.turns,
  ],
};

/** A page of the site with the lead agent's widget (served in place of a page the demo does not have). */
export async function openLeadPage(page: Page, workerUrl: string, siteKey: string) {
  const url = `${workerUrl}/lead-e2e.html`;
  await page.route(url, (route) =>
    route.fulfill({
      contentType: "text/html",
      body:
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plans</title></head><body>` +
        `<h1>Plans</h1><script src="/parley.js" data-site-key="${siteKey}" data-agent="${LEAD_AGENT_ID}" async>` +
        `</script></body></html>`,
    }),
  );
  await page.goto(url);
}
