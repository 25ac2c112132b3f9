import { Hono } from "hono";
import { z } from "zod/mini";
import type { AgentConfig } from "../../shared/config/agent-config.ts";
import type { StageConfig } from "../../shared/config/stage-config.ts";
import { fieldSchema } from "../../shared/stages/stage-fields.ts";
import { contextValue, stageById } from "../../shared/stages/stage-machine.ts";
import { describeIssue } from "../../shared/tools/tool.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { sessionToken } from "../middleware/session-token.ts";
import { ownSession } from "../middleware/own-session.ts";
import { loadSessionAgent, loadSite } from "../config/config-store.ts";
import type { StageOutcome } from "../session/stage-ops.ts";
import { callEndpoint } from "../stages/endpoints.ts";
import { judgePromptRules } from "../stages/prompt-rules.ts";
import { emitLead, leadFrom } from "../webhooks/lead-card.ts";
import { modelTargets } from "../llm/model-targets.ts";
import { sessionRoom } from "../objects.ts";
import { FieldValue, FieldValues } from "../../shared/stages/field-value.ts";

/** The protocol designer's stage workflow, its session API: context, edits, completion, action results, trace. */
export const stageRoutes = new Hono<AppEnv>();
const guard = [sessionToken(), ownSession()] as const;
/** What the visitor writes into the stages (their edits, completions, action cards) waits for their consent. */
const writes = [sessionToken(), ownSession({ consent: true })] as const;

async function stagedAgent(env: AppEnv["Bindings"], claims: AppEnv["Variables"]["claims"]): Promise<AgentConfig> {
  const agent = await loadSessionAgent(env, claims);
  if (!agent?.stages.length) throw new ApiError(404, "not_found", `Agent ${claims.agent} has no stages`);
  return agent;
}

function stageOf(agent: AgentConfig, stageId: string): StageConfig {
  const stage = stageById(agent.stages, stageId);
  if (!stage)
    throw new ApiError(404, "not_found", `No stage ${JSON.stringify(stageId.slice(0, 40))} in agent ${agent.id}`);
  return stage;
}

function refusal(outcome: StageOutcome, what: string): never {
  if (outcome.status === "conflict") {
    throw new ApiError(
      409,
      "conflict",
      `${what}: the context changed since your copy (now ` +
        `version ${outcome.state?.contextVersion}); reload it and ` +
        `apply your change again`,
    );
  }
  if (outcome.status === "done") throw new ApiError(409, "conflict", `${what}: the workflow is already complete`);
  throw new ApiError(
    409,
    "conflict",
    `${what}: that stage cannot be changed now (current stage: ${outcome.state?.stage.current ?? "none"})`,
  );
}

stageRoutes.get(ROUTES.sessionContext, ...guard, async (c) => {
  const state = await sessionRoom(c.env, c.var.claims.sid).getState();
  return c.json({ stage: state.stage, context: state.context, contextVersion: state.contextVersion });
});

const PatchContext = z.object({
  stageId: z.string().check(z.maxLength(40)),
  field: z.string().check(z.maxLength(40)),
  value: FieldValue,
  baseVersion: z.int().check(z.gte(0)),
});

/** One field edited by the visitor; based on an old version it is refused (409), never overwritten silently. */
stageRoutes.patch(ROUTES.sessionContext, ...writes, jsonBody(PatchContext), async (c) => {
  const { stageId, field, value, baseVersion } = c.req.valid("json");
  const agent = await stagedAgent(c.env, c.var.claims);
  const stage = stageOf(agent, stageId);
  const def = stage.fields.find((f) => f.key === field);
  if (!def) throw new ApiError(400, "validation_failed", `Stage ${stageId} has no field ${JSON.stringify(field)}`);
  if (value !== null) {
    const parsed = fieldSchema(def).safeParse(value);
    if (!parsed.success)
      throw new ApiError(400, "validation_failed", `${field}: ${describeIssue(parsed.error.issues[0])}`);
  }
  const outcome = await sessionRoom(c.env, c.var.claims.sid).updateContext(
    { stageId, values: { [field]: value }, source: "visitor", baseVersion },
    agent.stages,
  );
  if (outcome.status !== "ok") refusal(outcome, `Editing ${field}`);
  return c.json({ events: outcome.events, contextVersion: outcome.state!.contextVersion });
});

/** Runs the completion checks; blocking failures keep the stage open (200, completed: false, with the checks). */
stageRoutes.post(ROUTES.stageComplete, ...writes, async (c) => {
  const agent = await stagedAgent(c.env, c.var.claims);
  const stage = stageOf(agent, c.req.param("stageId"));
  const room = sessionRoom(c.env, c.var.claims.sid);
  const state = await room.getState();
  if (state.stage.current !== stage.id)
    refusal({ status: state.stage.done ? "done" : "not_current", events: [], state }, `Completing ${stage.id}`);
  // Rule verdicts come from the site's models (its providers and fallbacks), as the chat's replies do.
  const site = stage.rules.some((r) => r.kind === "prompt") ? await loadSite(c.env, c.var.claims.site) : null;
  const targets = site ? modelTargets(site, agent) : undefined;
  const promptChecks = await judgePromptRules(c.env, agent, stage, state.context, targets);
  const outcome = await room.completeStage({ stageId: stage.id, promptChecks }, agent.stages);
  if (outcome.status !== "ok" && outcome.status !== "blocked") refusal(outcome, `Completing ${stage.id}`);
  return c.json({
    completed: outcome.status === "ok",
    checks: outcome.checks ?? [],
    events: outcome.events,
    stage: outcome.state!.stage,
  });
});

const ActionBody = z.object({ stageId: z.string().check(z.maxLength(40)), result: z.optional(FieldValues) });

/**
 * An action card's result (the stage workflow's action callback). `api_call` cards are run here, against the
 * configured endpoint; `deep_link` and `modal` cards post what the widget got. The card's result
 * mapping merges the result into the stage's context.
 */
stageRoutes.post(ROUTES.action, ...writes, jsonBody(ActionBody), async (c) => {
  const { stageId, result: posted } = c.req.valid("json");
  const agent = await stagedAgent(c.env, c.var.claims);
  const stage = stageOf(agent, stageId);
  const card = stage.actionCards.find((a) => a.id === c.req.param("cardId"));
  if (!card)
    throw new ApiError(
      404,
      "not_found",
      `Stage ${stageId} has no action card ${JSON.stringify(c.req.param("cardId").slice(0, 40))}`,
    );
  const room = sessionRoom(c.env, c.var.claims.sid);
  let result: FieldValues;
  if (card.type === "api_call") {
    const state = await room.getState();
    const params: FieldValues = {};
    for (const [param, path] of Object.entries(card.params ?? {}))
      params[param] = contextValue(state.context, path, stageId) ?? null;
    const site = await loadSite(c.env, c.var.claims.site);
    result = await callEndpoint(c.env, site!.tenantId, card.endpoint ?? "", params);
  } else {
    if (!posted) throw new ApiError(400, "validation_failed", "result: required for deep_link and modal cards");
    result = posted;
  }
  const lead = card.lead ? leadFrom(result) : null;
  const values: FieldValues = {};
  for (const [key, field] of Object.entries(card.resultMapping))
    if (result[key] !== undefined) values[field] = result[key];
  const outcome = await room.updateContext(
    { stageId, values, source: "action", action: { cardId: card.id, result } },
    agent.stages,
  );
  if (outcome.status !== "ok") refusal(outcome, `Action ${card.id}`);
  if (lead) {
    const { site, sid, agent: agentId } = c.var.claims;
    const at = { siteKey: site, sessionId: sid, agentId, stageId, cardId: card.id };
    c.executionCtx.waitUntil(emitLead(c.env, at, lead).catch(() => {}));
  }
  return c.json({ result, events: outcome.events });
});

stageRoutes.get(ROUTES.trace, ...guard, async (c) => {
  const state = await sessionRoom(c.env, c.var.claims.sid).getState();
  return c.json({ trace: state.trace });
});
