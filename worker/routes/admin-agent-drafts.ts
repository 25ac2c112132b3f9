import { Hono } from "hono";
import { AgentConfig } from "../../shared/config/agent-config.ts";
import type { AdminAnswer } from "../../shared/wire/admin-answers.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { CONFIG_CACHE_MS, readDraftAgent } from "../config/config-store.ts";
import { deleteDraftAgent, writeDraftAgent, writeSiteAgent } from "../config/site-writes.ts";
import { checkTools, checkedEdit, ownAgentId, storedSite, type AdminEnv } from "./admin-agents.ts";

/**
 * An agent's draft: saved under its own KV key (draftAgentKey) with the same checks as the live
 * agent, tried in the console (a session opened with `draft: true` and the console's cookie runs
 * it), and published by copying it to the live key. Visitors never reach a draft.
 */
export const agentDraftRoutes = new Hono<AdminEnv>();

agentDraftRoutes.get(ROUTES.adminAgentDraft, async (c) => {
  const site = await storedSite(c);
  const id = ownAgentId(c, site);
  const draft = await readDraftAgent(c.env, site.siteKey, id);
  if (!draft) throw new ApiError(404, "not_found", `Agent ${id} has no saved draft`);
  return c.json({ agent: draft } satisfies AdminAnswer<"GET", typeof ROUTES.adminAgentDraft>);
});

agentDraftRoutes.put(ROUTES.adminAgentDraft, jsonBody(AgentConfig), async (c) => {
  const agent = c.req.valid("json");
  const site = await storedSite(c);
  checkedEdit(c, site, agent);
  await writeDraftAgent(c.env, site.siteKey, agent);
  return c.json({ agent } satisfies AdminAnswer<"PUT", typeof ROUTES.adminAgentDraft>);
});

agentDraftRoutes.post(ROUTES.adminAgentDraftPublish, async (c) => {
  const site = await storedSite(c);
  const id = ownAgentId(c, site);
  const draft = await readDraftAgent(c.env, site.siteKey, id);
  if (!draft) throw new ApiError(404, "not_found", `Agent ${id} has no saved draft to publish`);
  // A tool removed from the worker since the draft was saved is refused here, not at a visitor's turn.
  checkTools(draft);
  await writeSiteAgent(c.env, site.siteKey, draft);
  await deleteDraftAgent(c.env, site.siteKey, id);
  return c.json({ agent: draft, source: "site", takesEffectWithinMs: CONFIG_CACHE_MS } satisfies AdminAnswer<
    "POST",
    typeof ROUTES.adminAgentDraftPublish
  >);
});
