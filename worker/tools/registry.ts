import type { ToolDefinition, ToolInput } from "../../shared/tools/tool.ts";
import { knowledgeSearch } from "../../shared/tools/knowledge-search.ts";
import { webSearch } from "../../shared/tools/web-search.ts";
import type { AgentConfig } from "../../shared/config/agent-config.ts";
import { recordStageData } from "../../shared/tools/record-stage-data.ts";
import { suggestStrategyUpdate } from "../../shared/tools/suggest-strategy-update.ts";
import { loadSite } from "../config/config-store.ts";
import type { Env } from "../env.ts";
import { recordStageValues } from "./record-stage-values.ts";
import { searchKnowledge } from "./knowledge.ts";
import { searchWeb } from "./web-search.ts";
import { complianceCheck } from "../../shared/tools/compliance-check.ts";
import { priceCalculator } from "../../shared/tools/price-calculator.ts";
import { runComplianceCheck, runPriceCalculator } from "../sales/sales-tools.ts";
import { complianceCard } from "../guard/reply-compliance.ts";
import { crmAction } from "../../shared/tools/crm-action.ts";
import { runCrmAction } from "../sales/crm-action.ts";
import { profileReader } from "../../shared/tools/profile-reader.ts";
import { readProfile } from "../sales/profile-reader.ts";
import { analyzeSkinImage } from "../../shared/tools/analyze-skin-image.ts";
import { analyzeSkin } from "./skin-analysis.ts";
import { askForPerson } from "../../shared/tools/ask-for-person.ts";
import { askPerson } from "./ask-person.ts";
import { offerLeadCard } from "../../shared/tools/offer-lead-card.ts";
import { offerLead } from "./offer-lead-card.ts";
import { bookSlot, cancelBooking, findSlots } from "../../shared/tools/booking.ts";
import { runCancelBooking, runFindSlots } from "../booking/booking-tools.ts";
import { runBookSlot } from "../booking/book-slot.ts";
import { jurisdictionOf } from "../placement/jurisdiction.ts";
import { redactText } from "../privacy/redact-text.ts";
import { parseMcpToolName } from "../../shared/config/mcp-config.ts";
import { callMcpTool } from "../mcp/mcp-call.ts";
import { z } from "zod/mini";
import { strategyDesk } from "../objects.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

export interface EdgeToolContext {
  env: Env;
  siteKey: string;
  tenantId: string;
  sessionId: string;
  agent: AgentConfig;
  /** The model's call id, when the widget sent it: a card the tool records takes it as its id. */
  callId?: string;
  /** The session's signed-in rep (verified from the host's signed identity at session open). */
  rep?: string;
}

/** A tool's result, and the session events it appended (the widget folds them into its copy). */
export interface EdgeToolOutput {
  result: unknown;
  events?: SessionEvent[];
}

interface EdgeTool<T extends ToolDefinition = ToolDefinition> {
  def: T;
  run(ctx: EdgeToolContext, input: ToolInput<T>): Promise<EdgeToolOutput>;
}

const edgeTool = <T extends ToolDefinition>(def: T, run: EdgeTool<T>["run"]): EdgeTool =>
  ({ def, run }) as unknown as EdgeTool;

/** Tools that need a secret or the tenant's data run here, behind the proxy. */
export const EDGE_TOOLS: Record<string, EdgeTool> = {
  [knowledgeSearch.name]: edgeTool(knowledgeSearch, async ({ env, tenantId }, input) => ({
    result: { hits: await searchKnowledge(env, tenantId, input.query, input.top_k ?? 3) },
  })),
  [webSearch.name]: edgeTool(webSearch, async ({ env }, input) => ({
    result: await searchWeb(env, input.query, input.max_results ?? 5),
  })),
  // Given a reply's id (the widget's executor checking a finished reply), the rep's flag card comes
  // back too, for agents with the compliance guard; the chat route stored the same card with the reply.
  [complianceCheck.name]: edgeTool(complianceCheck, async ({ env, siteKey, agent }, input) => {
    const site = input.replyId ? await loadSite(env, siteKey) : null;
    const card = site && input.replyId ? complianceCard(input.text, input.replyId, agent, site) : null;
    return { result: await runComplianceCheck(env, siteKey, input), ...(card ? { events: [card] } : {}) };
  }),
  [priceCalculator.name]: edgeTool(priceCalculator, ({ env, siteKey, sessionId, callId }, input) =>
    runPriceCalculator(env, siteKey, input, callId ? { id: callId, sessionId } : undefined),
  ),
  [profileReader.name]: edgeTool(profileReader, async ({ env, siteKey, rep }, input) => ({
    result: await readProfile(env, siteKey, rep, input),
  })),
  [crmAction.name]: edgeTool(crmAction, async ({ env, siteKey, sessionId, rep }, input) => ({
    result: await runCrmAction(env, siteKey, sessionId, input, rep),
  })),
  [analyzeSkinImage.name]: edgeTool(analyzeSkinImage, async ({ env, siteKey, sessionId, agent, callId }, input) => {
    const site = await loadSite(env, siteKey);
    if (!site) throw new Error(`site ${siteKey} is gone`);
    return analyzeSkin({ env, site, agent, sessionId, callId }, input.context);
  }),
  [askForPerson.name]: edgeTool(askForPerson, (ctx, input) => askPerson(ctx, input.reason)),
  [offerLeadCard.name]: edgeTool(offerLeadCard, (ctx) => offerLead(ctx)),
  [findSlots.name]: edgeTool(findSlots, runFindSlots),
  [bookSlot.name]: edgeTool(bookSlot, runBookSlot),
  [cancelBooking.name]: edgeTool(cancelBooking, runCancelBooking),
  [recordStageData.name]: edgeTool(recordStageData, (ctx, input) => recordStageValues(ctx, input.values)),
  [suggestStrategyUpdate.name]: edgeTool(suggestStrategyUpdate, async ({ env, siteKey, sessionId, agent }, input) => {
    const site = await loadSite(env, siteKey);
    // As a visitor's feedback (routes/feedback.ts): the desk in the site's jurisdiction, its quotes redacted.
    const text = site?.redactTraces ? redactText : (t: string) => t;
    const context = { session: sessionId, ...(input.context ? { "the agent's context": text(input.context) } : {}) };
    const desk = strategyDesk(env, { siteKey, jurisdiction: jurisdictionOf(sessionId) }, agent.id);
    const request = { source: "tool" as const, text: text(input.update), context };
    const { request: queued, runAt } = await desk.enqueue(siteKey, agent.id, request, site?.desk.debounceMs ?? 60_000);
    return { result: { queued: queued.id, reviewAfter: new Date(runAt).toISOString() } };
  }),
};

/** The input check of an MCP tool here: an object; its server validates it against its own schema. */
const MCP_ARGUMENTS = z.record(z.string(), z.unknown());

/** The edge tool of that name: one of Parley's, or an MCP tool of the site's (`mcp__<server>__<tool>`). */
export function edgeToolFor(name: string): EdgeTool | undefined {
  if (EDGE_TOOLS[name]) return EDGE_TOOLS[name];
  if (!parseMcpToolName(name)) return undefined;
  const def = { name, description: "", input: MCP_ARGUMENTS, runsOn: "edge" as const };
  return edgeTool(def, async ({ env, siteKey }, input) => {
    const site = await loadSite(env, siteKey);
    if (!site) throw new Error(`site ${siteKey} is gone`);
    return { result: await callMcpTool(env, site, name, input) };
  });
}
