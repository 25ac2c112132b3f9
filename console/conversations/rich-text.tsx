import type { ComponentChildren } from "preact";

/**
 * Model and visitor text as elements, never as HTML: a few markdown forms a reply uses (paragraphs,
 * lists, headings, **bold**, `code`, [links](https://...)) are read into tokens and each token
 * becomes an element or a text node. Anything else stays text. Links are http(s) only and open
 * without the console as opener or referrer.
 */
export function RichText({ text }: { text: string }) {
  const blocks: ComponentChildren[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  const flush = () => {
    if (!list) return;
    const items = list.items.map((item, i) => <li key={i}>{inline(item)}</li>);
    blocks.push(list.ordered ? <ol key={blocks.length}>{items}</ol> : <ul key={blocks.length}>{items}</ul>);
    list = null;
  };
  for (const para of text.split(/\n{2,}/)) {
    for (const line of para.split("\n")) {
      const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
      const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
      const item = bullet ?? numbered;
      if (item) {
        if (!list || list.ordered !== Boolean(numbered)) {
          flush();
          list = { ordered: Boolean(numbered), items: [] };
        }
        list.items.push(item[1]);
        continue;
      }
      flush();
      if (!line.trim()) continue;
      const heading = /^#{1,6}\s+(.*)$/.exec(line);
      blocks.push(
        heading ? (
          <p key={blocks.length}>
            <strong>{inline(heading[1])}</strong>
          </p>
        ) : (
          <p key={blocks.length}>{inline(line)}</p>
        ),
      );
    }
    flush();
  }
  return <div class="rich">{blocks}</div>;
}

const INLINE = /\*\*([^*]+)\*\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)/g;

function inline(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) out.push(<strong key={m.index}>{m[1]}</strong>);
    else if (m[2] !== undefined) out.push(<code key={m.index}>{m[2]}</code>);
    else if (/^https?:\/\//i.test(m[4]))
      out.push(
        <a key={m.index} href={m[4]} target="_blank" rel="noopener noreferrer nofollow">
          {m[3]}
        </a>,
      );
    else out.push(m[0]);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
