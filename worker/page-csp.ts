/**
 * The Content-Security-Policy of every HTML page the worker renders itself (the iframe embed page;
 * the console when it comes), as strict as the widget allows (strict sites' CSP): scripts, styles and
 * requests from the worker only, nothing inline (the widget adopts constructable stylesheets), and
 * Trusted Types enforced with no policy at all, since nothing in the widget hands a string to a sink.
 * The static demo pages send the same through widget/demo/_headers.
 */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join("; ");

/**
 * The page policy with who may frame the page (origins, or none: `'none'`) and, for a page that
 * frames others (the console's live preview of the embed page), what it may frame.
 */
export function pageCsp(frameAncestors: readonly string[], frameSrc: readonly string[] = []): string {
  const frames = frameSrc.length ? `; frame-src ${frameSrc.join(" ")}` : "";
  return `${PAGE_CSP}${frames}; frame-ancestors ${frameAncestors.length ? frameAncestors.join(" ") : "'none'"}`;
}
