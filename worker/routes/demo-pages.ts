import { Hono, type Context } from "hono";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";

export const demoPageRoutes = new Hono<AppEnv>();

/**
 * The demo site's files (widget/demo, built into the static assets): wrangler.toml sends `/`, its
 * pages and every script and style but the widget's and the console's to the worker first, so they
 * are served in demo mode only. A deployed worker answers 404 for them rather than the demo (the
 * widget's own files are served as before).
 */
function demoPage(c: Context<AppEnv>, path: string): Promise<Response> {
  if (!c.env.demo) throw new ApiError(404, "not_found", "The demo site is served in demo mode only (npm start)");
  const url = new URL(c.req.url);
  url.pathname = path;
  return c.env.ASSETS.fetch(new Request(url, c.req.raw));
}

/** The demo's signer, in place of the host's backend: `?rep=rep-ana` gives that rep's identity for an hour. */
demoPageRoutes.get(ROUTES.demoIdentity, async (c) => {
  if (!c.env.demo) throw new ApiError(404, "not_found", "The demo signer exists in demo mode only (npm start)");
  const rep = c.req.query("rep") ?? "";
  const identity = await c.env.demo.signIdentity(rep);
  if (!identity) throw new ApiError(400, "validation_failed", `No demo rep ${JSON.stringify(rep.slice(0, 40))}`);
  return c.json({ identity });
});

demoPageRoutes.get(ROUTES.demoHome, (c) => demoPage(c, "/index.html"));
demoPageRoutes.get(ROUTES.demoAsset, (c) => demoPage(c, c.req.path));
demoPageRoutes.get(ROUTES.demoPage, async (c) => {
  const page = await demoPage(c, c.req.path);
  if (c.req.path !== "/sales.html" || !page.ok || !c.env.demo) return page;
  // The sales page's rep is signed in: its loader tag gets rep-ana's signed identity, as a host's
  // backend would render it into its own page (the page's policy allows no script to add it later).
  const identity = await c.env.demo.signIdentity("rep-ana");
  return new HTMLRewriter()
    .on('script[src="/parley.js"]', { element: (el) => void el.setAttribute("data-identity", identity ?? "") })
    .transform(page);
});
