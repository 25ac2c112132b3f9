import { performance } from "node:perf_hooks";
import type { ChatMessage } from "../../shared/chat/chat.ts";
import { classifyIntent } from "../../shared/tools/classify-intent.ts";
import { runAgentLoop, type LoopResult } from "../../widget/agent/loop.ts";
import { routeTurn, type RouteDecision } from "../../widget/agent/router.ts";
import type { FakeUpstream } from "../helpers/fake-upstream.ts";
import { agent, AGENT_ID, createRig, type CallRecord, type RigOptions } from "./agent-rig.ts";

/** The four ways the agent bench answers one simple question, each checked for how it answered. */

const QUESTION = "Can I take ibuprofen with paracetamol?";
/** The scripted answer says it; a path that answers something else has silently broken. */
const EXPECT = "ibuprofen";

export type PathId = "react" | "classified" | "quick" | "spec";
export const PATHS: Record<PathId, string> = {
  react: "plain ReAct (loop only)",
  classified: "classified ReAct (classify + ReAct + summary step)",
  quick: "quick path (classify, then retrieval)",
  spec: "speculative quick path",
};

export interface Sample {
  ms: number;
  records: CallRecord[];
}

const history = (): ChatMessage[] => [{ id: "u1", role: "user", content: QUESTION }];
const count = (recs: CallRecord[], kind: CallRecord["kind"]) => recs.filter((r) => r.kind === kind).length;
const toolNames = (recs: CallRecord[]) =>
  recs
    .filter((r) => r.kind === "tool")
    .map((r) => r.name)
    .join(",");
const lastAnswer = (r: LoopResult) => r.steps.at(-1)?.answer ?? "";

/** What each path must have done, so a path that silently takes another road fails the bench. */
function check(
  path: PathId,
  r: LoopResult,
  recs: CallRecord[],
  quickSources: string[],
  decision?: RouteDecision,
): string | null {
  const want: Record<
    PathId,
    { classify: number; chat: number; quick: number; summary: number; tools: string; route?: string }
  > = {
    react: { classify: 0, chat: 3, quick: 0, summary: 0, tools: "knowledge_search,web_search" },
    classified: { classify: 1, chat: 3, quick: 0, summary: 1, tools: "knowledge_search,web_search", route: "loop" },
    quick: { classify: 1, chat: 0, quick: 1, summary: 0, tools: "knowledge_search,web_search", route: "quick" },
    spec: { classify: 1, chat: 0, quick: 1, summary: 0, tools: "knowledge_search,web_search", route: "quick" },
  };
  const w = want[path];
  const got = {
    classify: count(recs, "classify"),
    chat: count(recs, "chat"),
    quick: count(recs, "quick"),
    summary: count(recs, "summary"),
    tools: toolNames(recs),
  };
  const problems: string[] = [];
  if (r.end !== "complete") problems.push(`ended ${r.end}`);
  if (!lastAnswer(r).includes(EXPECT))
    problems.push(`answer lacks "${EXPECT}": ${JSON.stringify(lastAnswer(r).slice(0, 120))}`);
  for (const k of ["classify", "chat", "quick", "summary"] as const)
    if (got[k] !== w[k]) problems.push(`${got[k]} ${k} completions, expected ${w[k]}`);
  // Quick-path tools run in parallel, so their records may land in either order.
  const tools = path === "react" || path === "classified" ? got.tools : got.tools.split(",").sort().join(",");
  if (tools !== w.tools) problems.push(`tools ${tools || "none"}, expected ${w.tools}`);
  if (w.route && decision?.route !== w.route)
    problems.push(`routed ${decision?.route ?? "nowhere"} (${decision?.intent}), expected ${w.route}`);
  // A failed quick-path tool leaves a note instead of sources and the answer still comes: look.
  for (const src of quickSources)
    if (!src.includes("[knowledge] Ibuprofen") || !src.includes("[web] "))
      problems.push(`quick answer got sources ${JSON.stringify(src.slice(0, 160))}`);
  const bad = r.steps.flatMap((s) => s.results).filter((x) => x.outcome !== "ok");
  if (bad.length)
    problems.push(`tool ${bad[0].call.function.name} ${bad[0].outcome}: ${bad[0].observation.slice(0, 120)}`);
  return problems.length ? problems.join("; ") : null;
}

/** Answers the question once by one path, checks how it was answered, and returns the time and its parts. */
export async function runPath(
  upstream: FakeUpstream,
  path: PathId,
  cfg: { edgeMs: number; turnTimeoutMs: number },
): Promise<Sample> {
  const opts: RigOptions = { upstreamUrl: upstream.url, edgeMs: cfg.edgeMs, summarizeWebSearch: path === "classified" };
  const rig = createRig(opts);
  const signal = AbortSignal.timeout(cfg.turnTimeoutMs);
  const loop = () =>
    runAgentLoop({
      strategy: "native",
      history: history(),
      complete: rig.complete,
      execute: rig.execute,
      maxSteps: agent.maxSteps,
      newId: rig.newId,
      signal,
    });
  const start = performance.now();
  let result: LoopResult;
  let decision: RouteDecision | undefined;
  if (path === "react") {
    result = await loop();
  } else {
    if (!agent.router) throw new Error(`${AGENT_ID} has no router`);
    // The classified baseline sends every intent through ReAct after classifying.
    const router = path === "classified" ? { ...agent.router, quickIntents: [] } : agent.router;
    const routed = await routeTurn({
      router,
      history: history(),
      complete: rig.complete,
      runEdge: rig.runEdge,
      newId: rig.newId,
      classifier: classifyIntent,
      speculative: path === "spec",
      runLoop: loop,
      signal,
    });
    result = routed;
    decision = routed.decision;
  }
  const ms = performance.now() - start;
  const problem = check(path, result, rig.records, rig.quickSources, decision);
  if (problem) throw new Error(`${PATHS[path]}: ${problem}`);
  return { ms, records: rig.records };
}
