import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newPage, useSite } from "../helpers/e2e.ts";
import { answered } from "../helpers/e2e-waits.ts";

/**
 * A zh-CN visitor on each demo page writes Chinese and reads Chinese: the scripted demo model
 * answers in the visitor's language as a model does, the clinic's advice cards included.
 */
const demo = useSite();
const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);
const HAN = /[\u3400-\u9fff]/;
/** Four English words in a row: an answer left in English (links aside). */
const ENGLISH = /[A-Za-z]{2,}(?:[\s,'’]+[A-Za-z]{2,}){3}/;

async function ask(page: Page, text: string): Promise<string> {
  await q(page, "textarea").fill(text);
  await q(page, "textarea").press("Enter");
  await answered(page, text);
  const replies = await q(page, '.msg[data-role="assistant"] .bubble').allTextContents();
  // The turn's replies, after the greeting.
  return replies
    .slice(1)
    .join("\n")
    .replace(/https?:\/\/\S+/g, "");
}

const PAGES = [
  { path: "/", text: "我的手臂上有红色的皮疹，很痒", says: /接触性皮炎/ },
  { path: "/qa.html", text: "每天应该喝多少水？", says: /升/ },
  { path: "/sales.html", text: "一家诊所问我们的保湿霜是否适合湿疹患者", says: /沟通要点/ },
  { path: "/protocol.html", text: "每天使用润肤剂能预防儿童湿疹发作吗？", says: /研究问题/ },
];

describe("the demo pages answer a Chinese visitor in Chinese", () => {
  for (const { path, text, says } of PAGES) {
    it(`${path}`, async () => {
      const { context, page, errors } = await newPage(demo, { locale: "zh-CN" });
      await page.goto(demo.url + path);
      await q(page, "button.l").click();
      await q(page, ".panel").waitFor();
      const reply = await ask(page, text);
      expect(reply).toMatch(says);
      expect(reply).toMatch(HAN);
      expect(reply).not.toMatch(ENGLISH);
      if (path === "/") {
        await expect
          .poll(() => q(page, ".card-title").allTextContents())
          .toEqual(["舒缓并保护皮肤", "何时去看皮肤科医生"]);
        for (const body of await q(page, ".card").allTextContents()) expect(body).not.toMatch(ENGLISH);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
