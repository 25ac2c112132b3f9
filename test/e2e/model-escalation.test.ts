import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newPage, useSite } from "../helpers/e2e.ts";
import { GENERIC_SCRIPT } from "../helpers/fake-upstream.ts";

/**
 * The emergency guard's model layer as a visitor meets it (built bundle, local worker, a provider
 * whose model calls escalate_emergency first): the urgent card is pinned before any reply text,
 * the worker ran the call (the page asked no tool route), and the answer follows.
 */
const ANSWER = "Please call an ambulance now and stay with him.";
const MARK = "[model escalates]";

const demo = useSite({
  script: {
    ...GENERIC_SCRIPT,
    turns: [
      {
        when: [MARK],
        steps: [
          {
            toolCalls: [
              {
                name: "escalate_emergency",
                arguments: { situation: "neuro", words: "he fell and now we cannot wake him" },
              },
            ],
          },
          { content: ANSWER },
        ],
      },
      ...GENERIC_SCRIPT.turns,
    ],
  },
});

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

describe("the model's escalation in the browser", () => {
  it("the card is pinned before any reply text; the worker ran the call, the page ran no tool", async () => {
    const { context, page, errors } = await newPage(demo);
    const tools: string[] = [];
    page.on("request", (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith("/v1/tools/")) tools.push(path);
    });
    await page.goto(demo.url + "/");
    await q(page, "button.l").click();
    await q(page, ".msg[data-role=assistant] .bubble").first().waitFor();
    await watchOrder(page);
    await q(page, "textarea").click();
    await page.keyboard.type(`He has been like this since this morning, what now? ${MARK}`);
    await page.keyboard.press("Enter");
    const answer = q(page, ".msg[data-role=assistant] .bubble").last();
    await expect.poll(() => answer.textContent()).toContain(ANSWER);
    await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
    expect(await page.evaluate(() => (window as unknown as { order: string[] }).order)).toEqual(["card", "text"]);
    const card = q(page, ".escalation");
    expect(await card.getAttribute("data-category")).toBe("neuro");
    expect(await card.locator(".esc-body").textContent()).toContain("Note the time the signs began");
    expect(tools).toEqual([]);
    // The model was offered the call it made, and was asked again with the worker's result.
    const asked = (await demo.requests()).filter((r) => r.text.includes(MARK));
    expect(asked).toHaveLength(2);
    expect(asked[0].tools).toContain("escalate_emergency");
    expect(asked[1].messages.at(-1)).toMatchObject({ role: "tool" });
    expect(errors).toEqual([]);
    await context.close();
  });
});
