import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * The rules a streaming reply's markdown is drawn with decide what each new block costs the page (a
 * Chrome trace of bench:stream, test/bench/stream-profile.ts, says where).
 */
const css = readFileSync(new URL("../../widget/ui/styles.css", import.meta.url), "utf8").replace(
  /\/\*[\s\S]*?\*\//g,
  "",
);
const rules = [...css.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map(([, selector, body]) => ({
  selector: selector.trim(),
  body,
}));
const markdown = rules.filter((r) => /\.md\b/.test(r.selector));

describe("the markdown's styles", () => {
  it("are found", () => {
    expect(markdown.length).toBeGreaterThan(10);
  });

  it("use no sibling combinator: a block added to a streaming reply must not restyle the reply", () => {
    // With a sibling rule (`.md > * + *`), each block appended makes Chrome restyle every element of the
    // reply, so a frame's style work grows with the reply's length; `:not(:first-child)` spaces them alike.
    expect(markdown.filter((r) => /[+~]/.test(r.selector)).map((r) => r.selector)).toEqual([]);
  });

  it("leave a reply's blocks rendered: no content-visibility on them", () => {
    // `content-visibility: auto` on every block makes Chrome check each block against the viewport in every
    // frame and lay out again those crossing its edge as the list scrolls: more work than it saves while a
    // reply streams (bench:stream measures Chromium's CPU per reply).
    expect(markdown.filter((r) => /content-visibility/.test(r.body)).map((r) => r.selector)).toEqual([]);
  });
});
