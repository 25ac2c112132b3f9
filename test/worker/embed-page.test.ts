import { describe, expect, it } from "vitest";
import { call, SITE_KEY } from "../helpers/worker/client.ts";

/** The iframe embed page the worker renders: a strict policy of its own, and nothing inline that it would refuse. */
describe("iframe embed page", () => {
  it("sends a strict CSP with Trusted Types, framable only by the site's origins; nothing inline", async () => {
    const { res } = await call(`/embed/derm-consult?site=${SITE_KEY}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy")!;
    const pairs = csp.split("; ").map((d) => [d.slice(0, d.indexOf(" ")), d.slice(d.indexOf(" ") + 1)]);
    const directives = Object.fromEntries(pairs);
    expect(directives).toEqual({
      "default-src": "'none'",
      "script-src": "'self'",
      "style-src": "'self'",
      "connect-src": "'self'",
      "img-src": "'self' data:",
      "base-uri": "'none'",
      "form-action": "'none'",
      "require-trusted-types-for": "'script'",
      "trusted-types": "'none'",
      "frame-ancestors": "http://127.0.0.1:* http://localhost:* 'self'",
    });
    const html = await res.text();
    // Only the module script (src) and a JSON data block, which no policy runs; no <style>, no style="".
    expect(html.match(/<script[^>]*>/g)).toEqual([
      '<script type="application/json" id="parley-embed">',
      '<script type="module" src="/parley-frame.js">',
    ]);
    expect(html).not.toMatch(/<style|\sstyle=|\son\w+=/i);
  });

  it("is served only for the site's own agents, and tells its bridge the site's origins", async () => {
    const { res } = await call(`/embed/derm-consult?site=${SITE_KEY}`);
    expect(await res.text()).toContain('"allowedOrigins":["http://127.0.0.1:*","http://localhost:*"]');
    for (const path of [`/embed/derm-consult?site=nope`, `/embed/not-an-agent?site=${SITE_KEY}`]) {
      const { res: refused } = await call(path);
      expect(refused.status, path).toBe(404);
      expect(await refused.text(), path).not.toContain("parley-embed");
    }
  });
});
