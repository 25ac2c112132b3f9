import { Fragment, h, type ComponentChildren, type VNode } from "preact";

/** Elements with whatever props their tag takes. */
type El = VNode<any>;
import { useRef } from "preact/hooks";
import {
  BLOCKQUOTE,
  CHECKBOX,
  CHECKED,
  CODE_BLOCK,
  CODE_FENCE,
  CODE_INLINE,
  EQUATION_BLOCK,
  EQUATION_INLINE,
  HEADING_1,
  HEADING_2,
  HEADING_3,
  HEADING_4,
  HEADING_5,
  HEADING_6,
  HREF,
  IMAGE,
  ITALIC_AST,
  ITALIC_UND,
  LINE_BREAK,
  LINK,
  LIST_ITEM,
  LIST_ORDERED,
  LIST_UNORDERED,
  PARAGRAPH,
  RAW_URL,
  RULE,
  SRC,
  START,
  STRIKE,
  STRONG_AST,
  STRONG_UND,
  TABLE,
  TABLE_CELL,
  TABLE_ROW,
  type Token,
} from "streaming-markdown";
import { updateDoc, type MdDoc, type MdNode } from "./markdown-tree.ts";

/**
 * Model text is untrusted. It is parsed by streaming-markdown into a tree of tokens and each token is
 * mapped to a Preact vnode; nothing goes through innerHTML, and the parser has no HTML syntax, so raw
 * HTML in the text can only ever show up as text. Safe by construction is also smaller than a sanitizer.
 *
 * Streaming that stays cheap on long replies: a reply is parsed once, chunk by chunk, and a finished
 * block is drawn once.
 * Closed nodes keep their vnode (a component vnode, so Preact skips it without diffing its insides),
 * and finished top-level blocks are kept in groups, so a chunk costs the open blocks plus one vnode
 * per group, not the whole reply.
 */

const SAFE_URL = /^https?:\/\//i;

export function safeHref(href: string | null | undefined): string | null {
  const url = (href ?? "").trim();
  return SAFE_URL.test(url) ? url : null;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: "\u00a0" };

/** The parser leaves entities as written; a text node would show them literally. */
function decode(text: string): string {
  if (text.indexOf("&") < 0) return text;
  return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name]);
}

const TAGS: Partial<Record<Token, string>> = {
  [PARAGRAPH]: "p",
  [HEADING_1]: "h3",
  [HEADING_2]: "h3",
  [HEADING_3]: "h3",
  [HEADING_4]: "h4",
  [HEADING_5]: "h5",
  [HEADING_6]: "h6",
  [CODE_INLINE]: "code",
  [EQUATION_INLINE]: "code",
  [ITALIC_AST]: "em",
  [ITALIC_UND]: "em",
  [STRONG_AST]: "strong",
  [STRONG_UND]: "strong",
  [STRIKE]: "del",
  [BLOCKQUOTE]: "blockquote",
  [LINE_BREAK]: "br",
  [RULE]: "hr",
  [LIST_UNORDERED]: "ul",
  [LIST_ITEM]: "li",
};

const kids = (n: MdNode): (El | string)[] => n.children.map(draw);
/** A table's rows, a row's cells: text between them (held back while streaming) has no place there. */
const nodes = (n: MdNode): MdNode[] => n.children.filter((c): c is MdNode => typeof c === "object");

/** A cell's text without the spaces around it between the pipes (`| A |`). */
function cell(n: MdNode): (El | string)[] {
  const out = kids(n);
  const last = out.length - 1;
  if (typeof out[0] === "string") out[0] = out[0].trimStart();
  if (typeof out[last] === "string") out[last] = (out[last] as string).trimEnd();
  return out;
}

const link = (href: string | null, children: ComponentChildren): El =>
  href
    ? h("a", { href, target: "_blank", rel: "noopener noreferrer nofollow" }, children)
    : h(Fragment, null, children);

function element(n: MdNode): El {
  const t = n.type;
  switch (t) {
    case CODE_BLOCK:
    case CODE_FENCE:
    case EQUATION_BLOCK:
      return h("pre", null, h("code", null, n.children.join("")));
    case LINK:
    case RAW_URL:
      return link(safeHref(n.attrs[HREF]), kids(n));
    case IMAGE: {
      // Images are not loaded (tracking pixels, layout); the alt text stands in, as a link when safe.
      const href = safeHref(n.attrs[SRC]);
      return link(href, n.children.length ? kids(n) : href);
    }
    case CHECKBOX:
      return h(Fragment, null, n.attrs[CHECKED] === undefined ? "\u2610 " : "\u2611 ");
    case LIST_ORDERED: {
      const start = Number(n.attrs[START] ?? 1);
      return h("ol", { start: start !== 1 ? start : undefined }, kids(n));
    }
    case TABLE: {
      // The first row is the header, as in GFM; until a second row arrives there is only it.
      const [head, ...rows] = nodes(n);
      return h(
        "div",
        { class: "md-table" },
        h(
          "table",
          null,
          head &&
            h(
              "thead",
              null,
              h(
                "tr",
                null,
                nodes(head).map((c) => h("th", null, cell(c))),
              ),
            ),
          rows.length > 0 && h("tbody", null, rows.map(draw)),
        ),
      );
    }
    case TABLE_ROW:
      return h("tr", null, nodes(n).map(draw));
    case TABLE_CELL:
      return h("td", null, cell(n));
    default:
      // Anything unknown is shown as the text it holds.
      return h(TAGS[t] ?? Fragment, null, kids(n));
  }
}

/**
 * A node's element, drawn by the caller (an open node's with the text the parser holds back). Every node
 * is this component, open or closed, so Preact keeps its DOM when it closes or its group of blocks
 * is finished (a change of type would make it anew, and the page lay it out again); a closed node's
 * vnode is drawn once and reused, and Preact skips a reused vnode without looking inside.
 */
function Drawn({ el }: { el: El }): El {
  return el;
}

function draw(n: MdNode | string): El | string {
  if (typeof n === "string") return decode(n);
  if (!n.closed) return h(Drawn, { el: element(n) });
  return (n.drawn ??= h(Drawn, { el: element(n) })) as El;
}

function Group({ blocks }: { blocks: (El | string)[] }): El {
  return h(Fragment, null, blocks);
}

/** Top-level blocks per group: a long reply is a few dozen vnodes to compare per drawing. */
const GROUP = 16;

export function drawDoc(doc: MdDoc): (El | string)[] {
  // While a reply streams, the parser holds back its last characters until it knows what they start (a
  // `*`, a line's `-`); they are shown as text in the innermost open node meanwhile, so the last word
  // is on screen as soon as it arrives. Open nodes are drawn afresh every time, so nothing keeps them.
  const held = doc.ended ? "" : doc.parser.pending;
  let open = doc.root;
  for (let last = open.children.at(-1); typeof last === "object" && !last.closed; last = last.children.at(-1)) {
    open = last;
  }
  if (held) open.children.push(held);
  const blocks = doc.root.children as MdNode[];
  const out: (El | string)[] = [];
  for (let i = 0; i < blocks.length; i += GROUP) {
    // A group is finished once its last block is (only a reply's last block is ever open): drawn once.
    const g = i / GROUP;
    const finished = i + GROUP <= blocks.length && blocks[i + GROUP - 1].closed;
    const group = () => h(Group, { blocks: blocks.slice(i, i + GROUP).map(draw) }) as El;
    out.push(finished ? ((doc.groups[g] ??= group()) as El) : group());
  }
  if (held) open.children.pop();
  return out;
}

/** The whole text at once: what a stored reply draws (`done`), or a stream that has reached `text`. */
export function renderMarkdown(text: string, done = true): (El | string)[] {
  return drawDoc(updateDoc(null, text, done));
}

/**
 * `done`: the text is complete (a stored message, or the stream has ended), so what the parser
 * held back to decide on (a lone `*` at the very end, say) is shown too.
 */
export function Markdown({ text, done = true }: { text: string; done?: boolean }) {
  const doc = useRef<MdDoc | null>(null);
  doc.current = updateDoc(doc.current, text, done);
  return <div class="md">{drawDoc(doc.current)}</div>;
}
