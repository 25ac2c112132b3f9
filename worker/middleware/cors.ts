import { cors } from "hono/cors";
import type { Context, MiddlewareHandler } from "hono";
import { HEADERS } from "../../shared/wire/protocol.ts";
import type { AppEnv } from "../env.ts";
import { originAllowed } from "../config/origins.ts";
import { originInConfig } from "../config/config-store.ts";

/** The origin a request's response may be read from: one some site allows, else none. */
async function allowedOrigin(origin: string, c: Context<AppEnv>): Promise<string | null> {
  if (!origin) return null;
  if (c.env.demo && originAllowed(origin, c.env.demo.corsOrigins)) return origin;
  return (await originInConfig(c.env, origin)) ? origin : null;
}

const EXPOSE = [HEADERS.replyId, HEADERS.sessionId, "retry-after"].join(",");

/**
 * CORS answers only origins some site allows (preflights carry no site key or token, so the
 * site-specific check happens on the request itself, in siteOrigin()). KV holds `origin:<origin>`
 * for sites configured there, read through the config cache; demo mode adds the demo site's
 * loopback origins. A deployed worker knows no origin that KV does not list.
 *
 * Preflights are hono's cors(). Other requests get the same headers set on the route's own response
 * once it is made: hono's cors() writes them on a placeholder response first, which then costs two
 * copies of every response (its body stream included) on the chat path's thread.
 */
export function corsForKnownOrigins(): MiddlewareHandler<AppEnv> {
  const preflight = cors({
    origin: allowedOrigin,
    // DELETE: a visitor erases their own conversation from the widget, on the site's page.
    allowMethods: ["GET", "POST", "PATCH", "DELETE", "OPTIONS"],
    allowHeaders: ["content-type", "authorization", HEADERS.siteKey, HEADERS.adminKey],
    exposeHeaders: EXPOSE.split(","),
    maxAge: 600,
  });
  return async function corsMiddleware(c, next) {
    if (c.req.method === "OPTIONS") return preflight(c, next);
    // Before the route, as hono's: a failed lookup fails the request before anything runs.
    const origin = await allowedOrigin(c.req.header("origin") ?? "", c);
    await next();
    const set = (headers: Headers) => {
      if (origin) headers.set("Access-Control-Allow-Origin", origin);
      headers.set("Access-Control-Expose-Headers", EXPOSE);
      headers.append("Vary", "Origin");
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
