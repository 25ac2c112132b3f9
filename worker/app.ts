import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { LIMITS } from "../shared/wire/protocol.ts";
import { errorBody } from "../shared/wire/errors.ts";
import * as ROUTES from "../shared/wire/routes.ts";
import type { AppEnv } from "./env.ts";
import { ApiError, toErrorResponse } from "./errors.ts";
import { corsForKnownOrigins } from "./middleware/cors.ts";
import { securityHeaders } from "./middleware/security-headers.ts";
import { adminRoutes } from "./routes/admin.ts";
import { demoPageRoutes } from "./routes/demo-pages.ts";
import { demoWebhookRoutes } from "./routes/demo-webhooks.ts";
import { chatRoutes } from "./routes/chat.ts";
import { consoleRoutes } from "./routes/console.ts";
import { embedRoutes } from "./routes/embed.ts";
import { feedbackRoutes } from "./routes/feedback.ts";
import { healthRoutes } from "./routes/health.ts";
import { openApiRoute } from "./routes/openapi.ts";
import { photoRoutes } from "./routes/photos.ts";
import { liveRoutes } from "./routes/live.ts";
import { takeoverRoutes } from "./routes/takeover.ts";
import { sessionRoutes } from "./routes/sessions.ts";
import { consentRoutes } from "./routes/consent.ts";
import { visitorDataRoutes } from "./routes/visitor-data.ts";
import { stageRoutes } from "./routes/stages.ts";
import { toolRoutes } from "./routes/tools.ts";

/**
 * Middleware order: errors (onError) -> security headers -> CORS -> body size -> routes; each route
 * adds its own token and site-origin checks, so a refusal never reaches storage or the provider.
 */
export function createApp() {
  const app = new Hono<AppEnv>();
  app.onError(toErrorResponse);
  app.notFound((c) => c.json(errorBody("not_found", `No route for ${c.req.method} ${c.req.path}`), 404));

  app.use("*", securityHeaders());
  app.use(ROUTES.apiScope, corsForKnownOrigins());
  const jsonLimit = bodyLimit({
    maxSize: LIMITS.maxBodyBytes,
    onError: () => {
      throw new ApiError(413, "payload_too_large", `Request body is larger than ${LIMITS.maxBodyBytes} bytes`);
    },
  });
  // A photo upload is checked against its agent's own limit (routes/photos.ts), up to 10 MB.
  app.use(ROUTES.apiScope, (c, next) => (isPhotoUpload(c.req.method, c.req.path) ? next() : jsonLimit(c, next)));

  app.route("/", healthRoutes);
  app.route("/", sessionRoutes);
  app.route("/", consentRoutes);
  app.route("/", visitorDataRoutes);
  app.route("/", feedbackRoutes);
  app.route("/", photoRoutes);
  app.route("/", chatRoutes);
  app.route("/", liveRoutes);
  app.route("/", takeoverRoutes);
  app.route("/", toolRoutes);
  app.route("/", embedRoutes);
  app.route("/", stageRoutes);
  app.route("/", adminRoutes);
  app.route("/", consoleRoutes);
  app.route("/", demoWebhookRoutes);
  app.route("/", demoPageRoutes);
  app.get(ROUTES.openapi, openApiRoute(app));
  return app;
}

const PHOTO_UPLOAD = new RegExp("^" + ROUTES.sessionPhotos.replace(":id", "[^/]+") + "$");
function isPhotoUpload(method: string, path: string): boolean {
  return method === "POST" && PHOTO_UPLOAD.test(path);
}
