/**
 * The rules of a lazily loaded part of the panel (stage panel, trace view, cards) ship in that part's
 * chunk, not in the core's stylesheet: a visitor who never sees the part never downloads them. A chunk
 * adds its rules when it is first imported, before any of its components draws, to every mounted
 * widget (and to any mounted later), the way mount() added the core's: a constructable stylesheet,
 * else a <style> with the host's nonce. With neither, the widget's <link> to parley.css already holds
 * every chunk's rules (vite.config.ts), so there is nothing to add.
 */
interface Root {
  root: ShadowRoot;
  nonce?: string;
  added: (CSSStyleSheet | HTMLStyleElement)[];
}

const roots = new Set<Root>();
const chunks: string[] = [];

function apply(r: Root, css: string): void {
  const { root } = r;
  if ((root as Partial<ShadowRoot>).adoptedStyleSheets) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    r.added.push(sheet);
  } else if (r.nonce) {
    const el = document.createElement("style");
    el.nonce = r.nonce;
    el.textContent = css;
    root.append(el);
    r.added.push(el);
  }
}

/** A lazy chunk's rules, for every widget root now and later. */
export function addChunkCss(css: string): void {
  chunks.push(css);
  for (const r of roots) apply(r, css);
}

/** mount(): this root gets the chunks' rules; the returned function takes them back (destroy). */
export function chunkCssRoot(root: ShadowRoot, nonce?: string): () => void {
  const r: Root = { root, nonce, added: [] };
  roots.add(r);
  for (const css of chunks) apply(r, css);
  return () => {
    roots.delete(r);
    root.adoptedStyleSheets &&= root.adoptedStyleSheets.filter((s) => !r.added.includes(s));
    for (const a of r.added) if (!(a instanceof CSSStyleSheet)) a.remove();
  };
}
