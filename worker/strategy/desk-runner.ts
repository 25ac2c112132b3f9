import type { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import type { Env } from "../env.ts";
import { ownerMessage } from "../errors.ts";
import { agentSeed, forgetAgentPrompt } from "../prompts/agent-prompt-cache.ts";
import { DESK_PROMPTS } from "../prompts/desk-prompts.ts";
import { LABELS } from "../prompts/prompt-paths.ts";
import { editAndReview } from "./desk-run.ts";
import { DeskBudgetError, MeteredLlm } from "./desk-llm.ts";
import { deskLlm } from "./desk-provider.ts";
import { closeSpan, openSpan } from "./desk-trace.ts";
import type { QueuedRequest, RunRecord } from "../../shared/admin/desk-records.ts";
import { autoPromotion } from "./promotion-policy.ts";
import { regressionGate } from "./regression-gate.ts";
import { requestsText, visitorTexts } from "./requests-text.ts";
import { promptRegistry } from "../objects.ts";

export interface RunInput {
  env: Env;
  site: SiteConfig;
  agent: AgentConfig;
  requests: QueuedRequest[];
  /** Visitor messages whose replies were rated up, newest first (the regression set with the eval cases). */
  goodQuestions: string[];
  /** Tokens the run may spend: the desk's daily cap and the site's budget, whichever is left lower. */
  allowance: number;
  /** Called after each completion: the run is alive (dead-run detection reads it). */
  heartbeat: () => void;
}

/**
 * One run: A/B/C edit and review (desk-run.ts); a pass saves `candidate` versions, replays the
 * regression set, and promotes when the site allows it. A failure writes nothing to the registry.
 */
export async function executeRun(input: RunInput, record: RunRecord): Promise<RunRecord> {
  const { env, site, agent } = input;
  const registry = promptRegistry(env, site.siteKey);
  const span = openSpan(`strategy desk run ${record.id}`, "run", { agent: agent.id, requests: input.requests.length });
  const llm = new MeteredLlm(deskLlm(env, site, agent), input.allowance, input.heartbeat);
  const requests = requestsText(input.requests);
  const finish = (status: RunRecord["status"], extra: Partial<RunRecord>): RunRecord => {
    closeSpan(span, status !== "failed" && status !== "refused", { status, tokens: llm.tokens });
    return {
      ...record,
      ...extra,
      status,
      endedAt: Date.now(),
      tokens: llm.tokens,
      completions: llm.calls,
      trace: span,
    };
  };
  try {
    const current = await registry.agentPrompt(agent.id, agentSeed(agent));
    const [editStrategies, editGuidance, review, judge] = await Promise.all([
      registry.deskPrompt(DESK_PROMPTS.editStrategies),
      registry.deskPrompt(DESK_PROMPTS.editGuidance),
      registry.deskPrompt(DESK_PROMPTS.review),
      registry.deskPrompt(DESK_PROMPTS.judge),
    ]);
    const outcome = await editAndReview(llm, span, {
      agentId: agent.id,
      requests,
      strategies: current.parts.strategies.text,
      guidance: current.parts.guidance.text,
      visitorTexts: visitorTexts(input.requests),
      prompts: { editStrategies, editGuidance, review },
    });
    if (!outcome.ok)
      return finish("failed", { reasons: outcome.reasons, scores: outcome.scores, loops: outcome.scores.length });

    const note = `strategy desk run ${record.id}: review ${outcome.review.score}/100`;
    const candidate: RunRecord["candidate"] = {};
    for (const part of ["strategies", "guidance"] as const) {
      if (outcome[part] === current.parts[part].text) continue;
      const saved = await registry.save(`${agent.id}/${part}`, {
        text: outcome[part],
        author: "desk",
        note,
        parent: current.parts[part].version,
        labels: [LABELS.candidate],
      });
      candidate[part] = saved.version;
    }
    const candidatePrompt = await registry.agentPrompt(agent.id, agentSeed(agent), LABELS.candidate);
    const questions = [...new Set([...agent.evalCases, ...input.goodQuestions])];
    const gate = await regressionGate(llm, span, {
      agentId: agent.id,
      requests,
      questions,
      oldSystem: current.text,
      newSystem: candidatePrompt.text,
      judge,
    });
    const reasons = [
      ...outcome.reasons,
      `review ${outcome.review.score}/100 after ${outcome.loops} loop(s): ${outcome.review.reasons}`,
      `regression gate: ${gate.cases} case(s), ${gate.better} better, ${gate.worse} worse`,
      ...gate.refusals.map((r) => `regression gate refused: ${r}`),
    ];
    const base = { candidate, gate, scores: outcome.scores, loops: outcome.loops };
    if (!gate.passed) {
      const why = gate.refusals.length ? "the gate refused the candidate" : "the candidate answered worse";
      return finish("refused", { ...base, reasons: [...reasons, `promotion refused: ${why}`] });
    }
    if (!site.desk.autoPromote)
      return finish("candidate", { ...base, reasons: [...reasons, "waiting for the owner to promote"] });
    const policy = autoPromotion(input.requests, site.desk.visitorQuorum);
    if (!policy.allowed) return finish("candidate", { ...base, reasons: [...reasons, policy.reason] });
    const promoted = await promote(
      env,
      site.siteKey,
      agent.id,
      candidate,
      "desk",
      `${note}; regression gate passed (auto-promotion: ${policy.reason})`,
    );
    return finish("promoted", { ...base, promoted, reasons });
  } catch (err) {
    const reason =
      err instanceof DeskBudgetError ? `stopped by its budget: ${err.message}` : `error: ${ownerMessage(err)}`;
    return finish("failed", { reasons: [reason] });
  }
}

/** Moves production to the candidate versions; answers each move (from, to) for a later rollback. */
export async function promote(
  env: Env,
  siteKey: string,
  agentId: string,
  candidate: RunRecord["candidate"],
  by: string,
  why: string,
) {
  const registry = promptRegistry(env, siteKey);
  const promoted: RunRecord["promoted"] = {};
  for (const [part, version] of Object.entries(candidate)) {
    if (version === undefined) continue;
    const move = await registry.moveLabel(`${agentId}/${part}`, LABELS.production, version, by, why);
    promoted[`${agentId}/${part}`] = { from: move.from, to: version };
  }
  forgetAgentPrompt(siteKey, agentId);
  return promoted;
}
