import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";

/** A year: browsers remember to use https for the worker's host (only itself: its subdomains are not its own). */
const HSTS = "max-age=31536000";
/**
 * Only the origin, never the path, to another origin, and nothing over http. Not `no-referrer`, which
 * by the Fetch standard also sends `Origin: null` on a page's same-origin POST, and the demo pages
 * open sessions on their own origin (the console and the embed page choose `no-referrer` themselves).
 */
const REFERRER_POLICY = "strict-origin-when-cross-origin";

/**
 * Headers on every response the worker answers (JSON, errors, the console's and the embed page's
 * HTML, the demo pages), set in this one place: the browser takes no content type but the one
 * sent (nosniff), sends no path of ours to another origin (unless the route chose a stricter
 * policy), and, over https, keeps to https for the host (Strict-Transport-Security; browsers ignore it over
 * http, and `wrangler dev` serves http). The static files the worker does not answer get the same
 * from the assets' `_headers` (widget/demo/_headers).
 */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async function securityHeadersMiddleware(c, next) {
    await next();
    // A socket's upgrade carries no content.
    if (c.res.status === 101) return;
    const https = c.req.url.startsWith("https:");
    const set = (headers: Headers) => {
      headers.set("X-Content-Type-Options", "nosniff");
      if (!headers.has("Referrer-Policy")) headers.set("Referrer-Policy", REFERRER_POLICY);
      if (https) headers.set("Strict-Transport-Security", HSTS);
    };
    try {
      set(c.res.headers);
    } catch {
      // A response passed on from fetch (assets, a Durable Object) has immutable headers: a copy.
      c.res = new Response(c.res.body, c.res);
      set(c.res.headers);
    }
  };
}
