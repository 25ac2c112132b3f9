import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { dermConsultScript } from "../../worker/demo/index.ts";
import { newPage, useSite } from "../helpers/e2e.ts";

/**
 * A long markdown reply streaming into the built widget on the clinic's page, watched change by change:
 * the text it adds is in view the moment it is drawn (the list follows in the same frame, not a frame
 * later), and the blocks drawn are updated in place (no element of the reply is taken out and made
 * again as its paragraph or its group of blocks finishes).
 */
const WORDS = "rash itch cream barrier gentle fragrance patch redness dryness soothing".split(" ");
const word = (i: number) => WORDS[i % WORDS.length];
/** About 700 tokens: paragraphs with bold and code, and lists; the provider streams each word as one event. */
const LONG = Array.from({ length: 24 }, (_, k) =>
  [
    `Paragraph ${k}: ${word(k)} ${word(k + 1)} **${word(k + 2)} ${word(k + 3)}** with \`${word(k + 4)}\` ` +
      `and ${word(k + 5)} ${word(k + 6)} ${word(k + 7)}.`,
    `- ${word(k + 8)} **${word(k + 9)}**\n- ${word(k + 2)} \`${word(k + 3)}\``,
    "",
  ].join("\n\n"),
).join("");
const END = " Done.";

/** The clinic's script, with the long reply first for a message that asks for it. */
const demo = useSite({
  script: {
    ...dermConsultScript,
    turns: [{ when: ["[long]"], steps: [{ content: LONG + END }] }, ...dermConsultScript.turns],
  },
});

const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);

interface Watched {
  /** For each change that grew the reply while the list overflowed: px between the list's bottom and its view. */
  below: number[];
  /** Elements of the reply's markdown taken out of the page while it streamed. */
  removed: string[];
  /** The reply's first paragraph, as first drawn, is still the one shown. */
  firstKept: boolean;
}

/** Watches the next reply from before it is asked for; `done()` stops and answers what was seen. */
async function watchReply(page: Page): Promise<() => Promise<Watched>> {
  await page.evaluate(() => {
    const root = document.querySelector("parley-chat")!.shadowRoot!;
    const list = root.querySelector<HTMLElement>(".list")!;
    const before = root.querySelectorAll(".msg[data-role=assistant]").length;
    const seen = { below: [] as number[], removed: [] as string[], first: null as Element | null, length: 0 };
    const reply = () => root.querySelectorAll(".msg[data-role=assistant]")[before];
    const observer = new MutationObserver((records) => {
      const md = reply()?.querySelector(".md");
      if (!md) return;
      seen.first ??= md.querySelector("p");
      for (const r of records)
        for (const n of r.removedNodes)
          if (n instanceof Element && md.contains(r.target)) seen.removed.push(n.tagName.toLowerCase());
      const length = md.textContent?.length ?? 0;
      if (length > seen.length && list.scrollHeight > list.clientHeight)
        seen.below.push(list.scrollHeight - list.scrollTop - list.clientHeight);
      seen.length = length;
    });
    observer.observe(root, { subtree: true, childList: true, characterData: true });
    (window as unknown as { watched: () => Watched }).watched = () => {
      observer.disconnect();
      const first = reply()?.querySelector(".md p");
      return { below: seen.below, removed: seen.removed, firstKept: !!first && first === seen.first };
    };
  });
  return () => page.evaluate(() => (window as unknown as { watched: () => Watched }).watched());
}

describe("a long reply streaming into the widget", () => {
  it("is followed in the frame that draws it, and its blocks are updated in place", async () => {
    const { context, page, errors } = await newPage(demo, { viewport: { width: 1280, height: 900 } });
    await page.goto(demo.url + "/");
    await q(page, "button.l").click();
    await q(page, ".msg[data-role=assistant] .md").first().waitFor();
    // The markdown chunk loaded (the greeting drawn by it, not the plain fallback).
    await page.waitForLoadState("networkidle");
    const done = await watchReply(page);
    // A few milliseconds between events, as a model writes: the page reads the reply piece by piece.
    await q(page, "textarea").fill("Tell me everything about my rash [long] [pace:3]");
    await q(page, "textarea").press("Enter");
    await expect
      .poll(() => q(page, ".msg[data-role=assistant]").last().textContent(), { timeout: 30_000 })
      .toContain("Done.");
    await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
    const seen = await done();

    // Drawn many times while it overflowed the list, and every time already scrolled into view.
    expect(seen.below.length).toBeGreaterThan(5);
    expect(seen.below.filter((px) => px > 1)).toEqual([]);
    // Nothing drawn was made anew: the first paragraph shown at the start is the one shown at the end.
    expect(seen.removed).toEqual([]);
    expect(seen.firstKept).toBe(true);
    await page.screenshot({ path: "test-results/e2e-streaming-view.png" });
    expect(errors).toEqual([]);
    await context.close();
  });
});
