import { Hono, type Context } from "hono";
import { z } from "zod/mini";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import type { AdminAnswer } from "../../shared/wire/admin-answers.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { loadAgent } from "../config/config-store.ts";
import { agentSeed, forgetAgentPrompt } from "../prompts/agent-prompt-cache.ts";
import { DESK_AGENT } from "../prompts/desk-prompts.ts";
import { LabelName } from "../prompts/prompt-paths.ts";
import { registryCall } from "../prompts/registry-errors.ts";
import { unifiedDiff } from "../prompts/unified-diff.ts";
import { promptRegistry } from "../objects.ts";

type AdminEnv = AppEnv & { Variables: { site: SiteConfig } };
type AdminContext = Context<AdminEnv>;

/**
 * The prompt registry for a site owner (behind the admin key, mounted by admin.ts): list, read,
 * diff, save, move a label, label history, and an agent's compiled system prompt at a label.
 */
export const promptAdminRoutes = new Hono<AdminEnv>();

/** `<agent>/<name>` of this site: one of its agents, or its strategy desk. */
function pathOf(c: AdminContext): { agent: string; path: string } {
  const agent = c.req.param("agent") ?? "";
  const name = c.req.param("name") ?? "";
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(name) || (agent !== DESK_AGENT && !c.var.site.agents.includes(agent))) {
    throw new ApiError(404, "not_found", `No prompt ${agent}/${name} for this site`);
  }
  return { agent, path: `${agent}/${name}` };
}

/** A version number, or a label's name. */
function refOf(value: string | undefined, what: string): { version?: number; label?: string } {
  if (value && /^[1-9]\d{0,8}$/.test(value)) return { version: Number(value) };
  if (value && LabelName.safeParse(value).success) return { label: value };
  throw new ApiError(400, "validation_failed", `${what} must be a version number or a label`);
}

const registry = (c: AdminContext) => promptRegistry(c.env, c.var.site.siteKey);

promptAdminRoutes.get(ROUTES.adminPrompts, async (c) =>
  c.json({ prompts: await registryCall(registry(c).list()) } satisfies AdminAnswer<"GET", typeof ROUTES.adminPrompts>),
);

promptAdminRoutes.get(ROUTES.adminPrompt, async (c) => {
  const { path } = pathOf(c);
  return c.json({ path, ...(await registryCall(registry(c).versions(path))) } satisfies AdminAnswer<
    "GET",
    typeof ROUTES.adminPrompt
  >);
});

promptAdminRoutes.get(ROUTES.adminPromptVersion, async (c) => {
  const { path } = pathOf(c);
  const version = await registryCall(registry(c).version(path, refOf(c.req.param("ref"), "version")));
  return c.json(version satisfies AdminAnswer<"GET", typeof ROUTES.adminPromptVersion>);
});

promptAdminRoutes.get(ROUTES.adminPromptDiff, async (c) => {
  const { path } = pathOf(c);
  const [a, b] = await registryCall(
    Promise.all([
      registry(c).version(path, refOf(c.req.query("from"), "from")),
      registry(c).version(path, refOf(c.req.query("to"), "to")),
    ]),
  );
  return c.json({
    path,
    from: a.version,
    to: b.version,
    diff: unifiedDiff(a.text, b.text, `${path}@${a.version}`, `${path}@${b.version}`),
  } satisfies AdminAnswer<"GET", typeof ROUTES.adminPromptDiff>);
});

const SaveBody = z.object({
  text: z.string().check(z.maxLength(50_000)),
  variables: z.optional(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(50))),
  note: z.optional(z.string().check(z.maxLength(1000))),
  parent: z.optional(z.int().check(z.positive())),
  labels: z.optional(z.array(LabelName).check(z.maxLength(10))),
});

promptAdminRoutes.post(ROUTES.adminPromptVersions, jsonBody(SaveBody), async (c) => {
  const { agent, path } = pathOf(c);
  const body = c.req.valid("json");
  if (body.labels?.includes("latest"))
    throw new ApiError(400, "validation_failed", "labels: latest follows the newest version by itself");
  const saved = await registryCall(registry(c).save(path, { ...body, author: "owner" }));
  forgetAgentPrompt(c.var.site.siteKey, agent);
  return c.json(saved satisfies AdminAnswer<"POST", typeof ROUTES.adminPromptVersions>, 201);
});

const MoveBody = z.object({
  version: z.nullable(z.int().check(z.positive())),
  why: z.string().check(z.minLength(1), z.maxLength(1000)),
});

promptAdminRoutes.put(ROUTES.adminPromptLabel, jsonBody(MoveBody), async (c) => {
  const { agent, path } = pathOf(c);
  const label = c.req.param("label");
  if (!LabelName.safeParse(label).success)
    throw new ApiError(400, "validation_failed", "label: lower-case letters, digits, . _ - (at most 40)");
  const { version, why } = c.req.valid("json");
  const move = await registryCall(registry(c).moveLabel(path, label, version, "owner", why));
  forgetAgentPrompt(c.var.site.siteKey, agent);
  return c.json(move satisfies AdminAnswer<"PUT", typeof ROUTES.adminPromptLabel>);
});

promptAdminRoutes.get(ROUTES.adminPromptHistory, async (c) => {
  const { path } = pathOf(c);
  const label = c.req.query("label");
  if (label !== undefined && !LabelName.safeParse(label).success)
    throw new ApiError(400, "validation_failed", "label is not a label name");
  const moves = await registryCall(registry(c).history(path, label));
  return c.json({ path, moves } satisfies AdminAnswer<"GET", typeof ROUTES.adminPromptHistory>);
});

/** What the chat path sends for this agent at a label (production by default), with the versions used. */
promptAdminRoutes.get(ROUTES.adminSystemPrompt, async (c) => {
  const id = c.req.param("agent");
  const agent = c.var.site.agents.includes(id) ? await loadAgent(c.env, c.var.site.siteKey, id) : null;
  if (!agent) throw new ApiError(404, "unknown_agent", `Agent ${JSON.stringify(id)} is not available for this site`);
  const label = c.req.query("label") ?? "production";
  if (!LabelName.safeParse(label).success) throw new ApiError(400, "validation_failed", "label is not a label name");
  const { text, versions } = await registryCall(registry(c).agentPrompt(id, agentSeed(agent), label));
  return c.json({ agent: id, label, text, versions } satisfies AdminAnswer<"GET", typeof ROUTES.adminSystemPrompt>);
});
