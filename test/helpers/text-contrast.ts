import type { Page } from "playwright-core";

export interface LowContrast {
  /** The element's tag, class and data-action, and the start of its text. */
  target: string;
  ratio: number;
  needed: number;
}

/**
 * Every piece of text in the widget's shadow root whose contrast is below WCAG's 4.5:1 (3:1 for large
 * text), computed as WCAG does: its colour over its background, each translucent fill on the way down
 * blended onto the one beneath it. axe-core leaves text on a translucent fill inside a shadow root
 * unreported (neither a violation nor "needs review"): white text on 18 % white over the header's
 * accent (3.93:1), or a translucent badge (3.6:1), passes it. Exempt as WCAG 1.4.3 exempts them: disabled
 * controls and pure decoration (hidden from assistive tech, like the avatar's initial of the agent's
 * name, which the title says in full). Text over an image or gradient is not computed.
 */
export function lowContrastText(page: Page): Promise<LowContrast[]> {
  return page.evaluate(() => {
    const root = document.querySelector("parley-chat")?.shadowRoot;
    if (!root) return [];
    const rgba = (c: string) => {
      const [r, g, b, a = 1] = (c.match(/[\d.]+/g) ?? []).map(Number);
      return { r, g, b, a };
    };
    const lum = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const [R, G, B] = [r, g, b].map((v) =>
        v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4,
      );
      return 0.2126 * R + 0.7152 * G + 0.0722 * B;
    };
    /** The colour behind an element: its own fill and each ancestor's, blended from the page's white up. */
    const backdrop = (el: Element): { r: number; g: number; b: number } | null => {
      const layers: Array<ReturnType<typeof rgba>> = [];
      for (
        let node: Element | null = el;
        node;
        node = node.parentElement ?? (node.getRootNode() as ShadowRoot).host ?? null
      ) {
        const style = getComputedStyle(node);
        if (style.backgroundImage !== "none") return null;
        const fill = rgba(style.backgroundColor);
        if (fill.a > 0) layers.push(fill);
        if (fill.a >= 1) break;
      }
      return layers.reverse().reduce(
        (under, top) => ({
          r: top.r * top.a + under.r * (1 - top.a),
          g: top.g * top.a + under.g * (1 - top.a),
          b: top.b * top.a + under.b * (1 - top.a),
        }),
        { r: 255, g: 255, b: 255 },
      );
    };
    const out: Array<{ target: string; ratio: number; needed: number }> = [];
    for (const el of root.querySelectorAll<HTMLElement>("*")) {
      const text = [...el.childNodes]
        .filter((n) => n.nodeType === 3 && n.textContent!.trim())
        .map((n) => n.textContent)
        .join("");
      if (!text.trim() || !el.getClientRects().length || el.closest(".sr, [aria-hidden=true]")) continue;
      if ((el.closest("button, input, textarea, select") as HTMLButtonElement | null)?.disabled) continue;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden") continue;
      const bg = backdrop(el);
      if (!bg) continue;
      const fg = rgba(style.color);
      const shown = {
        r: fg.r * fg.a + bg.r * (1 - fg.a),
        g: fg.g * fg.a + bg.g * (1 - fg.a),
        b: fg.b * fg.a + bg.b * (1 - fg.a),
      };
      const [hi, lo] = [lum(shown), lum(bg)].sort((a, b) => b - a);
      const ratio = (hi + 0.05) / (lo + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const needed = large ? 3 : 4.5;
      if (ratio < needed - 0.005) {
        const action = el.dataset.action ? `[${el.dataset.action}]` : "";
        out.push({
          target: `${el.tagName.toLowerCase()}.${el.className}${action} "${text.trim().slice(0, 30)}"`,
          ratio: +ratio.toFixed(2),
          needed,
        });
      }
    }
    return out;
  });
}
