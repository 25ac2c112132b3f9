/** What adoptCss added to a shadow root: a constructable stylesheet, or a <style> or <link> element. */
export type AdoptedCss = CSSStyleSheet | HTMLElement;

/**
 * Applies a stylesheet to a shadow root without anything a strict Content-Security-Policy
 * refuses (strict sites' CSP): a constructable stylesheet (`adoptedStyleSheets`), which `style-src` does not
 * govern. Browsers without them (Safari before 16.4, Firefox before 101) get a <style> carrying the
 * host's nonce when one was given, else a <link> to the worker's copy of the same rules, which
 * `style-src <worker>` allows.
 */
export function adoptCss(root: ShadowRoot, css: string, nonce: string | undefined, href: string): AdoptedCss {
  // Every browser with adoptedStyleSheets also has replaceSync (Chrome 73, Firefox 101, Safari 16.4).
  if ((root as Partial<ShadowRoot>).adoptedStyleSheets) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return sheet;
  }
  const el = document.createElement(nonce ? "style" : "link");
  if (nonce) {
    el.nonce = nonce;
    el.textContent = css;
  } else {
    el.setAttribute("rel", "stylesheet");
    el.setAttribute("href", href);
  }
  root.prepend(el);
  return el;
}

/** Takes back what adoptCss added (a separate function: the loader never needs it, and every byte there counts). */
export function dropCss(root: ShadowRoot, added: AdoptedCss): void {
  if (added instanceof CSSStyleSheet) root.adoptedStyleSheets = root.adoptedStyleSheets.filter((s) => s !== added);
  else added.remove();
}
