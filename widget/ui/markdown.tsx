import { Lexer, type Token, type Tokens } from "marked";
import { useMemo } from "preact/hooks";
import type { ComponentChildren, VNode } from "preact";

/**
 * Model text is untrusted. It is lexed by marked and each token is mapped to a Preact vnode;
 * nothing goes through innerHTML, so raw HTML in the text can only ever show up as text.
 * Safe by construction is also smaller than a sanitizer.
 */

const SAFE_URL = /^https?:\/\//i;

export function safeHref(href: string | null | undefined): string | null {
  const url = (href ?? "").trim();
  return SAFE_URL.test(url) ? url : null;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: "\u00a0" };

/** The lexer leaves entities as written; a text node would show them literally. */
function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name]);
}

function inline(tokens: Token[] | undefined): ComponentChildren[] {
  return (tokens ?? []).map(inlineToken);
}

function inlineToken(token: Token, i: number): ComponentChildren {
  const t = token as Tokens.Generic;
  switch (token.type) {
    case "text":
      return t.tokens ? <>{inline(t.tokens)}</> : decode(t.text);
    case "escape":
      return decode(t.text);
    case "strong":
      return <strong key={i}>{inline(t.tokens)}</strong>;
    case "em":
      return <em key={i}>{inline(t.tokens)}</em>;
    case "del":
      return <del key={i}>{inline(t.tokens)}</del>;
    case "codespan":
      return <code key={i}>{decode(t.text)}</code>;
    case "br":
      return <br key={i} />;
    case "link": {
      const href = safeHref(t.href);
      if (!href) return <>{inline(t.tokens)}</>;
      return (
        <a key={i} href={href} target="_blank" rel="noopener noreferrer nofollow">
          {inline(t.tokens)}
        </a>
      );
    }
    case "image": {
      // Images are not loaded (tracking pixels, layout); the alt text stands in, as a link when safe.
      const href = safeHref(t.href);
      const alt = t.text || href || "";
      return href ? (
        <a key={i} href={href} target="_blank" rel="noopener noreferrer nofollow">
          {alt}
        </a>
      ) : (
        alt
      );
    }
    // Raw HTML, and anything unknown, is shown as the text it is.
    default:
      return t.raw ?? t.text ?? "";
  }
}

function block(token: Token, i: number): VNode | string | null {
  const t = token as Tokens.Generic;
  switch (token.type) {
    case "space":
    case "def":
      return null;
    case "paragraph":
      return <p key={i}>{inline(t.tokens)}</p>;
    case "text":
      // Text directly in a tight list item.
      return <>{t.tokens ? inline(t.tokens) : decode(t.text)}</>;
    case "heading": {
      // h1/h2 would shout inside a chat bubble; all headings are scaled down in CSS.
      const H = `h${Math.min(Math.max(t.depth as number, 3), 6)}` as "h3";
      return <H key={i}>{inline(t.tokens)}</H>;
    }
    case "code":
      return (
        <pre key={i}>
          <code>{t.text}</code>
        </pre>
      );
    case "blockquote":
      return <blockquote key={i}>{blocks(t.tokens)}</blockquote>;
    case "hr":
      return <hr key={i} />;
    case "list": {
      const list = token as Tokens.List;
      const items = list.items.map((item, j) => <li key={j}>{blocks(item.tokens)}</li>);
      return list.ordered ? (
        <ol key={i} start={typeof list.start === "number" && list.start !== 1 ? list.start : undefined}>
          {items}
        </ol>
      ) : (
        <ul key={i}>{items}</ul>
      );
    }
    case "table": {
      const table = token as Tokens.Table;
      const align = (a: string | null) => (a ? { textAlign: a } : undefined);
      return (
        <div key={i} class="md-table">
          <table>
            <thead>
              <tr>
                {table.header.map((cell, j) => (
                  <th key={j} style={align(table.align[j])}>
                    {inline(cell.tokens)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, j) => (
                    <td key={j} style={align(table.align[j])}>
                      {inline(cell.tokens)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    case "html":
      return <p key={i}>{t.raw ?? t.text}</p>;
    default:
      return t.raw ? <p key={i}>{t.raw}</p> : null;
  }
}

function blocks(tokens: Token[] | undefined): (VNode | string | null)[] {
  return (tokens ?? []).map(block);
}

/** Lexes the whole text; while a reply streams in, unfinished syntax simply shows as text until it closes. */
export function renderMarkdown(text: string): (VNode | string | null)[] {
  return blocks(new Lexer({ gfm: true }).lex(text));
}

export function Markdown({ text }: { text: string }) {
  const nodes = useMemo(() => renderMarkdown(text), [text]);
  return <div class="md">{nodes}</div>;
}
