import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { usesDemoModel } from "../llm/upstream.ts";
import * as ROUTES from "../../shared/wire/routes.ts";

export const healthRoutes = new Hono<AppEnv>();

/** Liveness, and whether replies come from the offline demo model (the demo page says so). */
healthRoutes.get(ROUTES.health, (c) => c.json({ ok: true, demo: usesDemoModel(c.env) }));
