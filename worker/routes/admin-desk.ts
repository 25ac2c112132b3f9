import { Hono, type Context } from "hono";
import { z } from "zod/mini";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import type { AdminAnswer } from "../../shared/wire/admin-answers.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { registryCall } from "../prompts/registry-errors.ts";
import { strategyDesk } from "../objects.ts";

type AdminEnv = AppEnv & { Variables: { site: SiteConfig } };

/** The strategy desk of one of the site's agents, for its owner (behind the admin key, mounted by admin.ts). */
export const deskAdminRoutes = new Hono<AdminEnv>();

function deskOf(c: Context<AdminEnv>) {
  const agent = c.req.param("agent") ?? "";
  if (!c.var.site.agents.includes(agent))
    throw new ApiError(404, "unknown_agent", `Agent ${JSON.stringify(agent)} is not available for this site`);
  return { agent, desk: strategyDesk(c.env, c.var.site, agent) };
}

deskAdminRoutes.get(ROUTES.adminDeskQueue, async (c) => {
  const { agent, desk } = deskOf(c);
  const [queue, runAt] = await Promise.all([desk.pending(), desk.nextRunAt()]);
  return c.json({ agent, queue, nextRunAt: runAt } satisfies AdminAnswer<"GET", typeof ROUTES.adminDeskQueue>);
});

deskAdminRoutes.get(ROUTES.adminDeskRuns, async (c) => {
  const { agent, desk } = deskOf(c);
  const limit = Math.min(Math.max(Number(c.req.query("limit")) || 20, 1), 100);
  return c.json({ agent, runs: await desk.runs(limit) } satisfies AdminAnswer<"GET", typeof ROUTES.adminDeskRuns>);
});

deskAdminRoutes.get(ROUTES.adminDeskRunDetail, async (c) => {
  const { desk } = deskOf(c);
  const run = await desk.run(c.req.param("run"));
  if (!run) throw new ApiError(404, "not_found", "No such run");
  return c.json(run satisfies AdminAnswer<"GET", typeof ROUTES.adminDeskRunDetail>);
});

const Note = z.object({ text: z.string().check(z.minLength(1), z.maxLength(2000)) });

deskAdminRoutes.post(ROUTES.adminDeskNotes, jsonBody(Note), async (c) => {
  const { agent, desk } = deskOf(c);
  const { request, runAt } = await desk.enqueue(
    c.var.site.siteKey,
    agent,
    { source: "owner", text: c.req.valid("json").text },
    c.var.site.desk.debounceMs,
  );
  return c.json({ request, runAt } satisfies AdminAnswer<"POST", typeof ROUTES.adminDeskNotes>, 202);
});

deskAdminRoutes.post(ROUTES.adminDeskRun, async (c) => {
  const { agent, desk } = deskOf(c);
  const runAt = await desk.runNow(c.var.site.siteKey, agent);
  return c.json(runAt satisfies AdminAnswer<"POST", typeof ROUTES.adminDeskRun>, 202);
});

const Why = z.object({ why: z.string().check(z.minLength(1), z.maxLength(1000)) });
const RollbackBody = z.object({
  why: z.string().check(z.minLength(1), z.maxLength(1000)),
  run: z.optional(z.string().check(z.maxLength(100))),
});

deskAdminRoutes.post(ROUTES.adminDeskPromote, jsonBody(Why), async (c) => {
  const { desk } = deskOf(c);
  const run = await registryCall(desk.promoteRun(c.req.param("run"), c.req.valid("json").why));
  return c.json(run satisfies AdminAnswer<"POST", typeof ROUTES.adminDeskPromote>);
});

deskAdminRoutes.post(ROUTES.adminDeskReject, jsonBody(Why), async (c) => {
  const { desk } = deskOf(c);
  const run = await registryCall(desk.rejectRun(c.req.param("run"), c.req.valid("json").why));
  return c.json(run satisfies AdminAnswer<"POST", typeof ROUTES.adminDeskReject>);
});

deskAdminRoutes.post(ROUTES.adminDeskRollback, jsonBody(RollbackBody), async (c) => {
  const { desk } = deskOf(c);
  const { why, run } = c.req.valid("json");
  return c.json(
    (await registryCall(desk.rollbackRun(run, why))) satisfies AdminAnswer<"POST", typeof ROUTES.adminDeskRollback>,
  );
});
