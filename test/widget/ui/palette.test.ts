import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * The widget's palette is written once: each colour a custom property of `.root` holding its light and
 * its dark value (light-dark()), the theme only choosing the color-scheme. Two copies of the dark values
 * (data-theme="dark", and "auto" under a dark system) drift apart as soon as one is edited.
 */
const css = readFileSync(new URL("../../../widget/ui/styles.css", import.meta.url), "utf8").replace(
  /\/\*[\s\S]*?\*\//g,
  "",
);
const declared = [...css.matchAll(/(?:^|[;{\s])(--[\w-]+)\s*:/g)].map((m) => m[1]);

describe("the widget's palette", () => {
  it("is found: the colours of .root", () => {
    for (const name of ["--accent", "--on-accent", "--background", "--text", "--muted", "--border", "--urgent"]) {
      expect(declared, name).toContain(name);
    }
  });

  it("declares each custom property once, light and dark together", () => {
    const twice = declared.filter((name, i) => declared.indexOf(name) !== i);
    expect([...new Set(twice)]).toEqual([]);
  });

  it("lets a theme set only the color-scheme that light-dark() reads", () => {
    const themed = [...css.matchAll(/\.root\[data-theme="(\w+)"\]\s*\{([^{}]*)\}/g)];
    expect(themed.map((m) => m[1]).sort()).toEqual(["auto", "dark"]);
    for (const [, theme, body] of themed) expect(body.trim(), theme).toBe("color-scheme: dark;");
  });
});
