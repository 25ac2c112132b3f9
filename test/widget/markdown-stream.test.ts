import { describe, expect, it } from "vitest";
import { drawDoc, renderMarkdown } from "../../widget/ui/markdown.tsx";
import { updateDoc, type MdDoc, type MdNode } from "../../widget/ui/markdown-tree.ts";
import { toHtml } from "../helpers/widget/vnode-html.ts";
import type { VNode } from "preact";

/** The block vnodes of a group drawDoc drew. */
const blocksOf = (group: unknown) => (group as VNode<{ blocks: unknown[] }>).props.blocks;

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
    const first = blocksOf(drawDoc(doc)[0]);
    doc = updateDoc(doc, "# Title\n\nFirst paragraph.\n\nSecond paragraph grows", false);
    const second = blocksOf(drawDoc(doc)[0]);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect(second.at(-1)).not.toBe(first.at(-1));
  });

  it("draws a block as the same component while it streams, once it is finished, and once its group is", () => {
    // Preact keeps an element's DOM only while the vnode at its place keeps its type: a block drawn as
    // another type once finished would be made anew, and the page would lay the whole block out again.
    const text = Array.from({ length: 20 }, (_, i) => `Paragraph ${i} with **bold** text.`).join("\n\n");
    let doc = updateDoc(null, text.slice(0, 22), false);
    const streaming = drawDoc(doc);
    const block = blocksOf(streaming[0])[0];
    doc = updateDoc(doc, text, true);
    const ended = drawDoc(doc);
    const finished = blocksOf(ended[0]);
    expect(ended[0]).toMatchObject({ type: (streaming[0] as VNode).type });
    expect(finished[0]).toMatchObject({ type: (block as VNode).type });
    // Within the block too: the bold text, open while it streamed, kept its type once closed.
    const inner = (v: unknown) =>
      ((v as VNode<{ el: VNode<{ children: unknown[] }> }>).props.el.props.children as VNode[])[1];
    expect(inner(finished[0])).toMatchObject({ type: inner(block).type });
    // A finished group is drawn once.
    expect(drawDoc(doc)[0]).toBe(ended[0]);
  });
});
