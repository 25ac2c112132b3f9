import { parseToolInput, toOpenAITool } from "../../shared/tools/tool.ts";
import { compile, type Template } from "../prompts/template.ts";
import { addedRisks } from "./candidate-screen.ts";
import type { MeteredLlm } from "./desk-llm.ts";
import { judgeReplies } from "./desk-tools.ts";
import type { GateResult, GateVerdict, Span } from "../../shared/admin/desk-records.ts";
import { inSpan } from "./desk-trace.ts";
import { quoteUntrusted } from "./untrusted-text.ts";
import { contentText } from "../../shared/chat/message-content.ts";

/** Cases replayed before a candidate may be promoted (eval cases first, then recent good ones). */
export const GATE_CASES = 5;

/**
 * The regression gate. First the candidate is screened: one that adds contact details, links or an
 * instruction to set earlier ones aside is refused without a case replayed. Then each case is
 * answered with the production prompt (A) and the candidate (B), and a judge compares them. A
 * candidate judged worse on any case is refused; a judge that does not answer through its tool
 * counts as a refusal too, and so does a gate with no case at all, since an unjudged case proves nothing.
 */
export async function regressionGate(
  llm: MeteredLlm,
  run: Span,
  input: {
    agentId: string;
    requests: string;
    questions: string[];
    oldSystem: string;
    newSystem: string;
    judge: Template;
  },
): Promise<GateResult> {
  return inSpan(run, "regression gate", "gate", { cases: input.questions.length }, async (span) => {
    const verdicts: GateVerdict[] = [];
    const refusals = addedRisks(input.oldSystem, input.newSystem);
    if (refusals.length) {
      Object.assign(span.attrs, { refused: refusals.join("; ") });
      span.ok = false;
      return { passed: false, cases: 0, worse: 0, better: 0, verdicts, refusals };
    }
    if (!input.questions.length)
      refusals.push(
        "there is no case to replay: give the agent eval cases (or wait for replies visitors rate up); " +
          "a gate of 0 cases proves nothing",
      );
    for (const question of input.questions.slice(0, GATE_CASES)) {
      const answer = async (system: string) => {
        const out = await llm.complete(span, {
          role: "answer",
          messages: [
            { role: "system", content: system },
            { role: "user", content: question },
          ],
          tools: [],
        });
        return contentText(out.content);
      };
      const [oldAnswer, newAnswer] = [await answer(input.oldSystem), await answer(input.newSystem)];
      const system = compile(input.judge, {
        agent: input.agentId,
        requests: input.requests,
        question: quoteUntrusted(question),
        old_answer: oldAnswer,
        new_answer: newAnswer,
      });
      const out = await llm.complete(span, {
        role: "judge",
        messages: [
          { role: "system", content: system },
          { role: "user", content: "Judge the two replies now." },
        ],
        tools: [toOpenAITool(judgeReplies)],
        toolChoice: judgeReplies.name,
      });
      const call = out.toolCalls.find((c) => c.function.name === judgeReplies.name);
      const parsed = call && parseToolInput(judgeReplies, call.function.arguments);
      verdicts.push(
        parsed?.ok ? { question, ...parsed.value } : { question, better: "A", reason: "the judge gave no verdict" },
      );
    }
    const worse = verdicts.filter((v) => v.better === "A").length;
    const better = verdicts.filter((v) => v.better === "B").length;
    const passed = worse === 0 && !refusals.length;
    Object.assign(span.attrs, { worse, better });
    span.ok = passed;
    return { passed, cases: verdicts.length, worse, better, verdicts, refusals };
  });
}
