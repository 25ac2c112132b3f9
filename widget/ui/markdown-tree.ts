import {
  DOCUMENT,
  parser,
  parser_end,
  parser_write,
  type Any_Renderer,
  type Attr,
  type Parser,
  type Token,
} from "streaming-markdown";

/**
 * A reply's markdown as a tree that grows while it streams. streaming-markdown parses each chunk
 * once, where it left off (text already parsed is never read again), and reports tokens opening and
 * closing; this records them as plain nodes. A closed node never changes again, so what is drawn for
 * it can be kept (markdown.tsx). It has no HTML syntax at all: raw HTML in the text stays text.
 */
export interface MdNode {
  type: Token;
  attrs: Partial<Record<Attr, string>>;
  /** Child nodes and text runs (adjacent text is joined). */
  children: (MdNode | string)[];
  parent: MdNode | null;
  closed: boolean;
  /** What markdown.tsx drew for it once closed. */
  drawn?: unknown;
}

export interface MdDoc {
  root: MdNode;
  /** The text written so far. */
  text: string;
  /** The text is complete: whatever the parser held back to decide on has been flushed. */
  ended: boolean;
  parser: Parser;
  /** Drawn groups of finished top-level blocks (markdown.tsx). */
  groups: unknown[];
}

const node = (type: Token, parent: MdNode | null): MdNode => ({ type, attrs: {}, children: [], parent, closed: false });

export function createDoc(): MdDoc {
  const root = node(DOCUMENT, null);
  let cur = root;
  const renderer: Any_Renderer = {
    data: null,
    add_token(_, type) {
      const n = node(type, cur);
      cur.children.push(n);
      cur = n;
    },
    end_token() {
      cur.closed = true;
      cur = cur.parent ?? root;
    },
    add_text(_, text) {
      const kids = cur.children;
      const last = kids.length - 1;
      if (typeof kids[last] === "string") kids[last] += text;
      else kids.push(text);
    },
    set_attr(_, type, value) {
      cur.attrs[type] = value;
    },
  };
  return { root, text: "", ended: false, parser: parser(renderer), groups: [] };
}

/**
 * Brings `doc` up to `text`: only the part after what it has seen is parsed. A text that does not
 * continue the previous one (an edited or replaced message) starts a new document.
 */
export function updateDoc(doc: MdDoc | null, text: string, ended: boolean): MdDoc {
  let d = doc;
  if (!d || (d.ended ? text !== d.text : !text.startsWith(d.text))) d = createDoc();
  if (text.length > d.text.length) {
    parser_write(d.parser, text.slice(d.text.length));
    d.text = text;
  }
  if (ended && !d.ended) {
    parser_end(d.parser);
    d.ended = true;
  }
  return d;
}
