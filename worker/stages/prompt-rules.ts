import type { AgentConfig } from "../../shared/config/agent-config.ts";
import type { StageConfig } from "../../shared/config/stage-config.ts";
import { compileTemplate, type RuleCheck } from "../../shared/stages/stage-machine.ts";
import { parseToolInput, toOpenAITool } from "../../shared/tools/tool.ts";
import { ruleVerdict } from "../../shared/tools/rule-verdict.ts";
import type { Env } from "../env.ts";
import { callModel } from "../llm/upstream.ts";
import type { ModelTarget } from "../llm/model-targets.ts";
import type { FieldValues } from "../../shared/stages/field-value.ts";

/**
 * Prompt-based completion rules: the rule's template, filled with the context, goes to the model,
 * which must answer with rule_verdict. A check that cannot be judged (provider down, no verdict)
 * does not block: it becomes a warning saying so, never a silent pass.
 */
export async function judgePromptRules(
  env: Env,
  agent: AgentConfig,
  stage: StageConfig,
  context: Record<string, FieldValues>,
  targets?: ModelTarget[],
): Promise<RuleCheck[]> {
  const rules = stage.rules.filter((r) => r.kind === "prompt" && r.template);
  return Promise.all(
    rules.map(async (rule): Promise<RuleCheck> => {
      const base = {
        ruleId: rule.id,
        field: rule.field,
        severity: rule.severity,
        action: rule.action,
        message: rule.message,
        suggestion: rule.suggestion,
      };
      try {
        const reply = await callModel(
          env,
          agent,
          {
            model: agent.model,
            stream: false,
            max_tokens: 200,
            messages: [
              { role: "system", content: "You check one part of a research protocol. Judge only what is asked." },
              { role: "user", content: compileTemplate(rule.template!, context, stage.id) },
            ],
            tools: [toOpenAITool(ruleVerdict)],
            tool_choice: { type: "function", function: { name: ruleVerdict.name } },
          },
          undefined,
          targets,
        );
        const call = reply.kind === "json" ? reply.completion.choices?.[0]?.message?.tool_calls?.[0] : undefined;
        const verdict = call ? parseToolInput(ruleVerdict, call.function.arguments) : null;
        if (!verdict?.ok) throw new Error("no verdict");
        return {
          ...base,
          passed: verdict.value.pass,
          ...(verdict.value.pass
            ? {}
            : {
                message: {
                  en: `${rule.message.en} ${verdict.value.reason}`,
                  "zh-CN": `${rule.message["zh-CN"]} ${verdict.value.reason}`,
                },
              }),
        };
      } catch {
        return {
          ...base,
          passed: false,
          severity: "warning",
          action: "warn",
          message: {
            en: `${rule.message.en} (could not be checked right now)`,
            "zh-CN": `${rule.message["zh-CN"]}（暂时无法检查）`,
          },
        };
      }
    }),
  );
}
