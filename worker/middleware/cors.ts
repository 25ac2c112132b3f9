import { cors } from "hono/cors";
import type { Context } from "hono";
import { HEADERS } from "../../shared/protocol.ts";
import type { AppEnv } from "../env.ts";
import { originAllowed } from "../config/origins.ts";
import { PRESET_SITES } from "../presets/index.ts";
import { originInConfig } from "../config/config-store.ts";

const presetPatterns = Object.values(PRESET_SITES).flatMap((s) => s.allowedOrigins);

/**
 * CORS answers only origins some site allows (preflights carry no site key or token, so the
 * site-specific check happens on the request itself, in siteOrigin()). KV holds `origin:<origin>`
 * for sites configured there, read through the config cache.
 */
export function corsForKnownOrigins() {
  return cors({
    origin: async (origin: string, c: Context<AppEnv>) => {
      if (!origin) return null;
      if (originAllowed(origin, presetPatterns)) return origin;
      return (await originInConfig(c.env, origin)) ? origin : null;
    },
    allowMethods: ["GET", "POST", "PATCH", "OPTIONS"],
    allowHeaders: ["content-type", "authorization", HEADERS.siteKey, HEADERS.adminKey],
    exposeHeaders: [HEADERS.replyId, HEADERS.sessionId, "retry-after"],
    maxAge: 600,
  });
}
