import type { Context, Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { openApiDocument } from "../openapi/openapi-document.ts";

/**
 * GET /v1/openapi.json: the contract of the app it is mounted on, built from that app's routes once
 * per isolate (the routes cannot change while it runs).
 */
export function openApiRoute(app: Hono<AppEnv>) {
  let document: ReturnType<typeof openApiDocument> | undefined;
  return function openApiHandler(c: Context<AppEnv>) {
    document ??= openApiDocument(app.routes);
    c.header("cache-control", "public, max-age=300");
    return c.json(document);
  };
}
