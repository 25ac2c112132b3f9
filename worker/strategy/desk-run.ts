import { compile, type Template } from "../prompts/template.ts";
import { unifiedDiff } from "../prompts/unified-diff.ts";
import { addedLines, carriedVisitorText, OWN_WORDS } from "./carried-text.ts";
import { runEditor, runReviewer, type Review } from "./desk-agents.ts";
import type { MeteredLlm } from "./desk-llm.ts";
import type { Span } from "../../shared/admin/desk-records.ts";
import { inSpan } from "./desk-trace.ts";

/** The strategy desk: at most three edit-and-review loops; 80 or more passes. */
export const MAX_LOOPS = 3;
export const PASS_SCORE = 80;

export interface EditInput {
  agentId: string;
  /** The queued requests, as the agents read them. */
  requests: string;
  strategies: string;
  guidance: string;
  /** What visitors wrote or steered (requests-text.ts): an edit that carries it verbatim fails. */
  visitorTexts?: readonly string[];
  prompts: { editStrategies: Template; editGuidance: Template; review: Template };
}

export type EditOutcome =
  | {
      ok: true;
      strategies: string;
      guidance: string;
      review: Review;
      loops: number;
      scores: number[];
      /** Why the loops before the passing one failed. */
      reasons: string[];
    }
  | { ok: false; reasons: string[]; scores: number[] };

/**
 * A and B edit, C reviews the unified diff; below the pass score A and B try again from the
 * current texts with C's suggestions. Nothing here writes anywhere: the caller saves a passing
 * outcome and rolls back a failing one.
 */
export async function editAndReview(llm: MeteredLlm, run: Span, input: EditInput): Promise<EditOutcome> {
  const scores: number[] = [];
  const reasons: string[] = [];
  let suggestions = "";
  for (let loop = 1; loop <= MAX_LOOPS; loop++) {
    const outcome = await inSpan(run, `loop ${loop}`, "loop", {}, async (span) => {
      const reviewNote = suggestions
        ? `The reviewer's suggestions on the last attempt (follow them):\n${suggestions}`
        : "";
      const base = { agent: input.agentId, requests: input.requests, review_suggestions: reviewNote };
      const a = await runEditor(llm, span, "strategies", compile(input.prompts.editStrategies, base), input.strategies);
      if (!a.ok) return { fail: a.reason };
      const b = await runEditor(
        llm,
        span,
        "guidance",
        compile(input.prompts.editGuidance, { ...base, strategies: a.text }),
        input.guidance,
      );
      if (!b.ok) return { fail: b.reason };
      const diff = [
        unifiedDiff(
          input.strategies,
          a.text,
          `${input.agentId}/strategies (production)`,
          `${input.agentId}/strategies (candidate)`,
        ),
        unifiedDiff(
          input.guidance,
          b.text,
          `${input.agentId}/guidance (production)`,
          `${input.agentId}/guidance (candidate)`,
        ),
      ]
        .filter(Boolean)
        .join("\n");
      if (!diff) return { fail: "the editors changed nothing" };
      const review = await runReviewer(
        llm,
        span,
        compile(input.prompts.review, { agent: input.agentId, requests: input.requests, diff }),
      );
      if ("error" in review) return { fail: review.error };
      const added = `${addedLines(input.strategies, a.text)}\n${addedLines(input.guidance, b.text)}`;
      const production = `${input.strategies}\n${input.guidance}`;
      const carried = carriedVisitorText(input.visitorTexts ?? [], added, production);
      if (carried.length) {
        // Whatever the reviewer scored: a weak reviewer passes what a weak editor copied.
        span.attrs.reviewerScore = review.score;
        review.reasons =
          `the edit carries a visitor's words verbatim (${carried.map((c) => JSON.stringify(c)).join(", ")}); ` +
          `the reviewer had scored it ${review.score}`;
        review.suggestions = OWN_WORDS;
        review.score = 0;
      }
      span.attrs.score = review.score;
      span.ok = review.score >= PASS_SCORE;
      return { review, strategies: a.text, guidance: b.text };
    });
    if ("fail" in outcome) {
      reasons.push(`loop ${loop}: ${outcome.fail}`);
      continue;
    }
    scores.push(outcome.review.score);
    if (outcome.review.score >= PASS_SCORE)
      return {
        ok: true,
        strategies: outcome.strategies,
        guidance: outcome.guidance,
        review: outcome.review,
        loops: loop,
        scores,
        reasons,
      };
    reasons.push(`loop ${loop}: review scored ${outcome.review.score} (< ${PASS_SCORE}): ${outcome.review.reasons}`);
    suggestions = outcome.review.suggestions || outcome.review.reasons;
  }
  return { ok: false, reasons, scores };
}
