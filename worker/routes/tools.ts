import { Hono } from "hono";
import { z } from "zod/mini";
import { freshEventId } from "../../shared/session/events.ts";
import { traceEvent } from "../../shared/chat/step-events.ts";
import { parseToolInput } from "../../shared/tools/tool.ts";
import { RECORD_STAGE_DATA } from "../../shared/tools/record-stage-data.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { TOOL_NAMES } from "../../shared/tools/tool-names.ts";
import type { ToolResponse } from "../../shared/wire/api.ts";
import type { AppEnv } from "../env.ts";
import { ApiError, isProviderError } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { sessionToken } from "../middleware/session-token.ts";
import { checkSiteOrigin } from "../middleware/site-origin.ts";
import { loadSessionAgent } from "../config/config-store.ts";
import { EDGE_TOOLS } from "../tools/registry.ts";
import { bookingToolNames } from "../booking/booking-calendar.ts";
import { hasLeadCard } from "../../shared/stages/stage-lead.ts";
import { edgeToolFor } from "../tools/registry.ts";
import { admitTurn } from "../limits/admission.ts";
import { sessionRoom } from "../objects.ts";

export const toolRoutes = new Hono<AppEnv>();

const TOOL_TIMEOUT_MS = 15_000;

const ToolCallBody = z.object({
  /** The model's arguments, as the JSON string it produced or as an object. */
  arguments: z.union([z.string().check(z.maxLength(20_000)), z.record(z.string(), z.unknown())]),
  callId: z.optional(z.string().check(z.maxLength(200))),
});

/** Runs an edge tool with the same schema the model was given; each run is a trace step. */
toolRoutes.post(ROUTES.tool, sessionToken(), jsonBody(ToolCallBody), async (c) => {
  const name = c.req.param("name");
  const tool = edgeToolFor(name);
  if (!tool) throw new ApiError(404, "not_found", `No edge tool named ${JSON.stringify(name.slice(0, 60))}`);
  const claims = c.var.claims;
  const [site, agent] = await Promise.all([checkSiteOrigin(c, claims.site, false), loadSessionAgent(c.env, claims)]);
  // Stage agents get record_stage_data without listing it, every agent of a site with takeover
  // ask_for_person, an agent that books visits on a site with a calendar the booking tools, and an agent
  // with a lead card offer_lead_card; other tools must be in the agent's config.
  const allowed =
    agent &&
    (agent.tools.includes(name) ||
      (name === TOOL_NAMES.askForPerson && site.takeover.enabled) ||
      (name === RECORD_STAGE_DATA && agent.stages.length > 0) ||
      bookingToolNames(agent, site).includes(name) ||
      (name === TOOL_NAMES.offerLeadCard && hasLeadCard(agent)) ||
      agent.stages.some((s) => s.tools.includes(name)));
  if (!allowed) throw new ApiError(403, "forbidden", `Agent ${claims.agent} may not use ${name}`);
  const { arguments: args, callId } = c.req.valid("json");
  const parsed = parseToolInput(tool.def, args);
  if (!parsed.ok) throw new ApiError(400, "validation_failed", parsed.error);
  const room = sessionRoom(c.env, claims.sid);
  const started = Date.now();
  const step = (ok: boolean, detail: Record<string, string | number | boolean | null>) =>
    traceEvent(
      freshEventId("trace"),
      { kind: "tool", name, ms: Date.now() - started, ok, detail: { side: "edge", callId: callId ?? null, ...detail } },
      started,
    );
  const trace = (ok: boolean, detail: Record<string, string | number | boolean | null>) =>
    c.executionCtx.waitUntil(room.append([step(ok, detail)]).catch(() => {}));
  // A call id runs once (resumable turns): a page that went away while the tool ran asks again after its
  // reload, or a second tab with it, and gets the first run's answer; a run in flight is waited for.
  const argsText = JSON.stringify(parsed.value);
  const claim = callId ? await room.claimTool(callId) : ({ run: true } as const);
  if (!claim.run) {
    const { recorded } = claim;
    if (recorded.name !== name)
      throw new ApiError(409, "conflict", `Tool call ${callId} was a call of ${recorded.name}, not ${name}`);
    if (recorded.args !== argsText)
      throw new ApiError(409, "conflict", `Tool call ${callId} already ran with other arguments`);
    trace(true, { replayed: true });
    const answer = JSON.parse(recorded.body) as Pick<ToolResponse, "result" | "events">;
    return c.json({ name, ...answer, ms: 0, replayed: true });
  }
  try {
    // Edge tools spend the tenant's paid keys (web search): the same rate limits as the chat. A refused
    // call leaves nothing in the session (no trace step), as a refused chat turn; a replay costs nothing.
    await admitTurn(c, site, claims);
  } catch (err) {
    if (callId) c.executionCtx.waitUntil(room.releaseTool(callId).catch(() => {}));
    throw err;
  }
  try {
    // A hung tool must not hang the turn: the widget gets an error it can hand the model as the observation.
    const limitMs = Number(c.env.TOOL_TIMEOUT_MS) || TOOL_TIMEOUT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ApiError(504, "tool_failed", `${name} did not finish within ${limitMs / 1000} s`)),
        limitMs,
      );
    });
    const ctx = {
      env: c.env,
      siteKey: site.siteKey,
      tenantId: site.tenantId,
      sessionId: claims.sid,
      agent,
      callId,
      rep: claims.rep,
    };
    const { result, events } = await Promise.race([tool.run(ctx, parsed.value), timeout]).finally(() =>
      clearTimeout(timer!),
    );
    // Kept before the answer leaves: a reload right after it finds the record, not a second run.
    const answer: ToolResponse = { result, ...(events?.length ? { events } : {}) };
    if (callId) await room.recordTool(callId, { name, args: argsText, body: JSON.stringify(answer) }, [step(true, {})]);
    else trace(true, {});
    return c.json({ name, ...answer, ms: Date.now() - started });
  } catch (err) {
    if (callId) c.executionCtx.waitUntil(room.releaseTool(callId).catch(() => {}));
    const failed = step(false, { error: err instanceof Error ? err.message : String(err) });
    // A provider's own words (a vision model's refusal) go to the owner's notes, not the visitor's trace.
    const notes = isProviderError(err) ? [{ step: failed.id, text: err.ownerText }] : [];
    c.executionCtx.waitUntil(room.append([failed], notes).catch(() => {}));
    if (err instanceof ApiError) throw err;
    throw new ApiError(502, "tool_failed", `${name} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
});
