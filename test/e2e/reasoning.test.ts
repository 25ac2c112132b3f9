import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { dermConsultScript } from "../../worker/demo/index.ts";
import { newPage, useSite } from "../helpers/e2e.ts";
import { ANSWER, THOUGHT } from "../helpers/providers/index.ts";

/**
 * A reasoning model's thinking in the built widget, as a visitor sees it: collapsed under the
 * reply as reasoning, never in the answer's bubble — while it streams, once done, and after a
 * reload (the session kept it). One provider fixture per style: DeepSeek's `reasoning_content`
 * field, and `<think>` tags inside the content (Ollama, cut across chunks as a tokenizer cuts them).
 * The fake provider replays each fixture ([replay:…] in the message) and holds it at its most
 * delicate moment: DeepSeek's with the answer's bold still open, Ollama's with its closing tag cut
 * after the "<".
 */
const STYLES = {
  field: { provider: "deepseek-reasoner", holdAfter: 20, shownWhileHeld: "It sounds like" },
  tags: { provider: "ollama", holdAfter: 19, shownWhileHeld: null },
} as const;

const demo = useSite({ script: dermConsultScript });

const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);

/** Every text the next reply's bubble shows while it streams, recorded on each change. */
async function watchBubble(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { __shown: string[] };
    w.__shown = [];
    const root = document.querySelector("parley-chat")!.shadowRoot!;
    const sel = ".msg[data-role=assistant] .bubble";
    // The greeting is a bubble already: only the reply's, after it, is watched.
    const before = root.querySelectorAll(sel).length;
    new MutationObserver(() => {
      const text = root.querySelectorAll(sel)[before]?.textContent ?? "";
      if (text && w.__shown.at(-1) !== text) w.__shown.push(text);
    }).observe(root, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { __shown: string[] }).__shown);
}

describe("reasoning in the browser", () => {
  for (const style of Object.keys(STYLES) as Array<keyof typeof STYLES>) {
    const name = style === "field" ? "a reasoning_content field" : "<think> tags in the content";
    it(`${name}: collapsed as reasoning, the answer clean`, async () => {
      const { provider, holdAfter, shownWhileHeld } = STYLES[style];
      const { context, page, errors } = await newPage(demo, { viewport: { width: 1280, height: 860 } });
      await page.goto(demo.url + "/");
      await q(page, "button.l").click();
      await q(page, ".msg[data-role=assistant] .bubble").first().waitFor();
      const shown = await watchBubble(page);
      const gate = demo.gate(holdAfter);
      await q(page, "textarea").click();
      await page.keyboard.type(
        `I have a red itchy rash after a new soap [replay:${provider}:reasoning] ${gate.marker}`,
      );
      await page.keyboard.press("Enter");

      // Mid-stream, held: the thinking so far is there, collapsed; the answer's bubble holds no piece of it.
      await gate.held();
      await expect.poll(() => q(page, "details.reasoning").last().textContent()).toContain("not infection");
      const rendered = ANSWER.replace(/\*\*/g, "");
      const answer = q(page, ".msg[data-role=assistant] .bubble").last();
      if (shownWhileHeld) await expect.poll(() => answer.textContent()).toContain(shownWhileHeld);
      const midway = (await shown()).at(-1) ?? "";
      expect(rendered.startsWith(midway.trim()) || ANSWER.startsWith(midway.trim()), midway).toBe(true);
      await gate.release();

      await expect.poll(() => answer.textContent()).toContain("Keep the area clean and dry.");
      await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
      // Never, at any moment of the stream, was thinking (or a piece of a tag) in the answer's bubble.
      const seen = await shown();
      expect(seen.length).toBeGreaterThan(shownWhileHeld ? 1 : 0);
      for (const text of seen) {
        expect(text).not.toMatch(/<\/?t|think>|contact dermatitis, not infection/);
        // Mid-stream, bold not yet closed shows its asterisks: the text is a start of the answer either way.
        expect(rendered.startsWith(text.trim()) || ANSWER.startsWith(text.trim()), text).toBe(true);
      }
      expect((await answer.textContent())!.trim()).toBe(ANSWER.replace(/\*\*/g, ""));

      // The reasoning: collapsed under the reply, its text there but hidden until the visitor opens it.
      const reasoning = q(page, "details.reasoning").last();
      expect(await reasoning.getAttribute("open")).toBeNull();
      const thought = reasoning.locator("li.thought").first();
      expect((await thought.textContent())!.trim()).toBe(THOUGHT);
      expect(await thought.isVisible()).toBe(false);
      await reasoning.locator("summary").click();
      expect(await thought.isVisible()).toBe(true);
      await page.screenshot({ path: `test-results/e2e-reasoning-${style}.png`, animations: "disabled" });

      // Reload: the session kept the reasoning apart from the answer.
      await page.reload();
      await q(page, "button.l").click();
      await expect
        .poll(() => q(page, ".msg[data-role=assistant] .bubble").last().textContent())
        .toContain("Keep the area clean");
      const restored = q(page, "details.reasoning").last();
      expect(await restored.getAttribute("open")).toBeNull();
      expect((await restored.locator("li.thought").first().textContent())!.trim()).toBe(THOUGHT);
      expect(await q(page, ".msg[data-role=assistant] .bubble").last().textContent()).not.toContain("dermatitis");
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
