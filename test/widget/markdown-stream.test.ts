import { describe, expect, it } from "vitest";
import { drawDoc, renderMarkdown } from "../../widget/ui/markdown.tsx";
import { updateDoc, type MdDoc, type MdNode } from "../../widget/ui/markdown-tree.ts";
import { toHtml } from "../helpers/widget/vnode-html.ts";

/**
 * Streaming is parsed incrementally and finished blocks are drawn once. Whatever arrives
 * when, the visitor must see what a full render of the text so far shows, and at the end exactly what
 * a stored reply shows. Each document is streamed one character at a time.
 */
const TRICKY: Record<string, string> = {
  "an open code fence, closed late":
    'Before\n\n```js\nconst a = 1;\n\nif (a < 2) {\n  x("**not bold**");\n}\n```\n\nAfter `code` **b**',
  "a code fence never closed": "Text\n\n```\nstill code\n\n- not a list",
  "lists that become paragraphs":
    "- one\n- two\ncontinued\n\nA paragraph after.\n\n1. first\n2. second\n\n" +
    "3 apples, not a list\n\n* a\n* b\n\n  indented\nend",
  "nested lists and tasks": "- [ ] todo **bold**\n- [x] done\n  - nested `code`\n    deeper\n- back\n",
  tables: "| Drug | Dose |\n|---|--:|\n| A | 1 mg |\n| **B** | `2` mg |\n\nAfter the table.\n\n| one |\n|---|\n",
  "emphasis and links split anywhere":
    "Some **bold *and it* text** and ~~gone~~, [a link](https://example.com/a?b=1) " +
    "[bad](javascript:alert(1)) ![img](https://x.org/p.png) https://raw.example.org/x &amp; &lt;b&gt; end.",
  "headings, quotes and rules": "# One\n## Two\n### Three\n> quoted **b**\n> more\n\n---\n\n#### Four\ntext\n***\n",
  "raw HTML stays text": 'Hi <script>alert(1)</script> <img src=x onerror="alert(1)">\n\n<b onclick="x()">b</b>',
};

/** The serialized drawing of every closed node, the first time it was seen closed. */
function closedNodes(doc: MdDoc, seen: Map<MdNode, string>): void {
  const walk = (n: MdNode) => {
    const shown = () => JSON.stringify(n.children, (k, v) => (k === "parent" || k === "drawn" ? undefined : v));
    if (n.closed && !seen.has(n)) seen.set(n, shown());
    for (const c of n.children) if (typeof c !== "string") walk(c);
  };
  walk(doc.root);
}

describe("streamed markdown", () => {
  for (const [name, text] of Object.entries(TRICKY)) {
    it(`draws every prefix as a full render does, and ends as a stored reply: ${name}`, () => {
      let doc: MdDoc | null = null;
      const frozen = new Map<MdNode, string>();
      for (let i = 1; i <= text.length; i++) {
        const prefix = text.slice(0, i);
        doc = updateDoc(doc, prefix, false);
        expect(toHtml(drawDoc(doc)), `after ${JSON.stringify(prefix)}`).toBe(toHtml(renderMarkdown(prefix, false)));
        closedNodes(doc, frozen);
      }
      const streamed = updateDoc(doc, text, true);
      expect(streamed).toBe(doc);
      expect(toHtml(drawDoc(streamed))).toBe(toHtml(renderMarkdown(text)));
      // What was drawn once for a finished node is kept: it must never change afterwards.
      const after = new Map<MdNode, string>();
      closedNodes(streamed, after);
      for (const [node, was] of frozen) expect(after.get(node)).toBe(was);
    });
  }

  it("parses only what is new while the text grows, and starts again when it does not continue", () => {
    const doc = updateDoc(null, "Hello **wor", false);
    const root = doc.root;
    expect(updateDoc(doc, "Hello **world**", false).root).toBe(root);
    const replaced = updateDoc(doc, "Bye", false);
    expect(replaced.root).not.toBe(root);
    expect(toHtml(drawDoc(replaced))).toBe("<p>Bye</p>");
    // A finished text that changes (an edited message) is parsed again too.
    const ended = updateDoc(null, "Done", true);
    expect(updateDoc(ended, "Done!", true)).not.toBe(ended);
  });

  it("keeps a finished block's vnode while later text streams in", () => {
    let doc = updateDoc(null, "# Title\n\nFirst paragraph.\n\nSecond", false);
    const first = drawDoc(doc);
    doc = updateDoc(doc, "# Title\n\nFirst paragraph.\n\nSecond paragraph grows", false);
    const second = drawDoc(doc);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect(second.at(-1)).not.toBe(first.at(-1));
  });
});
