import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { loadSite } from "../config/config-store.ts";
import { pageCsp } from "../page-csp.ts";
import * as ROUTES from "../../shared/wire/routes.ts";

export const embedRoutes = new Hono<AppEnv>();

/** JSON inside a <script> element: `<` escaped so no value can close the element. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, "\\u003c");

/**
 * The iframe embed page: `/embed/<agent>?site=<key>[&locale=zh-CN][&theme=dark]`. The widget runs
 * full-frame (parley-frame.js). The site's allowed origins are rendered into the page (the frame
 * obeys and answers only those parents) and sent as `frame-ancestors`, so no other site can frame
 * it. Sessions opened from the frame carry the worker's own origin (see checkSiteOrigin).
 */
embedRoutes.get(ROUTES.embed, async (c) => {
  const agentId = c.req.param("agent");
  const siteKey = c.req.query("site") ?? "";
  const site = siteKey ? await loadSite(c.env, siteKey) : null;
  if (!site || !site.agents.includes(agentId)) {
    return c.text(`No agent ${agentId} for this site key`, 404);
  }
  // The worker's own origin too: the owner's console previews the agent in this frame.
  c.header("content-security-policy", pageCsp([...site.allowedOrigins, "'self'"]));
  c.header("cache-control", "no-store");
  c.header("referrer-policy", "no-referrer");
  const lang = (c.req.query("locale") ?? "").toLowerCase().startsWith("zh") ? "zh-CN" : "en";
  // `draft=1`: the console's "try draft" frame; the session open asks for the console's cookie.
  const draft = c.req.query("draft") === "1";
  const config = { siteKey: site.siteKey, agentId, allowedOrigins: site.allowedOrigins, ...(draft ? { draft } : {}) };
  return c.html(
    `<!doctype html><html lang="${lang}"><head><meta ` +
      `charset="utf-8"><meta name="viewport" ` +
      `content="width=device-width,initial-scale=1,interactive-widg` +
      `et=resizes-content">` +
      `<title>Chat</title></head><body>` +
      `<script type="application/json" id="parley-embed">${scriptJson(config)}</script>` +
      `<script type="module" src="/parley-frame.js"></script></body></html>`,
  );
});
