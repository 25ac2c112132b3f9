import type { BrowserContext, Page } from "playwright-core";

export interface ViolationWatch {
  /** `securitypolicyviolation` events of every frame of the page: directive, blocked URI, source. */
  events(): Promise<string[]>;
  /** Console messages about a refused resource, a Content-Security-Policy or Trusted Types. */
  console: string[];
}

/**
 * Records what the browser reports against a page's Content-Security-Policy or Trusted Types, in every
 * frame: the `securitypolicyviolation` events (heard by an init script, which no page policy governs;
 * listened for in the capture phase, so a violation inside a shadow root is heard too) and the
 * browser's console messages about them. Call before the first navigation.
 */
export async function watchViolations(context: BrowserContext, page: Page): Promise<ViolationWatch> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    Object.defineProperty(window, "__violations", { value: seen });
    addEventListener(
      "securitypolicyviolation",
      (e) => seen.push(`${e.effectiveDirective} blocked=${e.blockedURI} ${e.sourceFile}:${e.lineNumber} ${e.sample}`),
      true,
    );
  });
  const console: string[] = [];
  page.on("console", (m) => {
    if (/content.security.policy|trusted.?type|refused to/i.test(m.text())) console.push(m.text());
  });
  return {
    console,
    async events() {
      const read = () => (window as { __violations?: string[] }).__violations ?? [];
      const perFrame = page.frames().map((f) => f.evaluate(read));
      return (await Promise.all(perFrame)).flat();
    },
  };
}
