import { cors } from "hono/cors";
import type { Context } from "hono";
import { HEADERS } from "../../shared/protocol.ts";
import type { AppEnv } from "../env.ts";
import { originAllowed } from "../config/origins.ts";
import { originInConfig } from "../config/config-store.ts";

/**
 * CORS answers only origins some site allows (preflights carry no site key or token, so the
 * site-specific check happens on the request itself, in siteOrigin()). KV holds `origin:<origin>`
 * for sites configured there, read through the config cache; demo mode adds the demo site's
 * loopback origins. A deployed worker knows no origin that KV does not list.
 */
export function corsForKnownOrigins() {
  return cors({
    origin: async (origin: string, c: Context<AppEnv>) => {
      if (!origin) return null;
      if (c.env.demo && originAllowed(origin, c.env.demo.corsOrigins)) return origin;
      return (await originInConfig(c.env, origin)) ? origin : null;
    },
    allowMethods: ["GET", "POST", "PATCH", "OPTIONS"],
    allowHeaders: ["content-type", "authorization", HEADERS.siteKey, HEADERS.adminKey],
    exposeHeaders: [HEADERS.replyId, HEADERS.sessionId, "retry-after"],
    maxAge: 600,
  });
}
