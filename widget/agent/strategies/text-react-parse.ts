import type { ToolCall } from "../../../shared/chat/chat.ts";

/**
 * Parses text ReAct (Thought / Action / Action Input / Final Answer) from models without native
 * tool calls. Models are noisy: code fences around the JSON, prose after it, an invented
 * "Observation:" they were told not to write, a bare answer with no markers at all. What cannot
 * be read becomes `invalid` with a reason the model gets back as its observation.
 */
export type ReactStep =
  | { kind: "final"; thought: string; answer: string }
  | { kind: "action"; thought: string; tool: string; input: Record<string, unknown> }
  | { kind: "invalid"; thought: string; error: string };

const THOUGHT = /(?:^|\n)\s*Thought\s*:\s*([\s\S]*?)(?=\n\s*(?:Action|Final Answer)\s*:|$)/i;
const ACTION = /(?:^|\n)\s*Action\s*:\s*([^\n]*)/i;
const ACTION_INPUT = /(?:^|\n)\s*Action Input\s*:\s*([\s\S]*)/i;
const FINAL = /(?:^|\n)\s*Final Answer\s*:\s*([\s\S]*)/i;

export function parseReact(text: string): ReactStep {
  const thought = (THOUGHT.exec(text)?.[1] ?? "").trim();
  const action = ACTION.exec(text);
  const final = FINAL.exec(text);
  // An action written before a final answer wins: the answer after it was invented without the observation.
  if (action && (!final || action.index < final.index)) {
    const tool = action[1]
      .trim()
      .replace(/^[`"'[(]+|[`"'\])]+$/g, "")
      .trim();
    if (!tool)
      return {
        kind: "invalid",
        thought,
        error: "Action names no tool. Write `Action: <tool name>` then `Action Input: {json}`.",
      };
    const rest = text.slice(action.index);
    const inputText = ACTION_INPUT.exec(rest)?.[1] ?? "";
    const input = extractJsonObject(inputText.split(/\n\s*Observation\s*:/i)[0]);
    if (input === undefined)
      return {
        kind: "invalid",
        thought,
        error:
          `Action Input for ${tool} is not a valid JSON object. Reply ` +
          `again with Action: ${tool} and Action Input: {valid JSON}.`,
      };
    return { kind: "action", thought, tool, input };
  }
  if (final) return { kind: "final", thought, answer: final[1].trim() };
  // No markers: a model that simply answered. Treat the text (minus a leading Thought) as the answer.
  const answer = thought && text.trim().toLowerCase().startsWith("thought") ? "" : text.trim();
  return answer
    ? { kind: "final", thought: "", answer }
    : {
        kind: "invalid",
        thought,
        error:
          "No Action and no Final Answer. Either use a tool (Action / Action Input) or write Final Answer: <answer>.",
      };
}

/**
 * The first balanced `{...}` in the text (code fences and trailing prose ignored), parsed; undefined if none
 * parses.
 */
export function extractJsonObject(text: string): Record<string, unknown> | undefined {
  const body = text.replace(/```(?:json)?/gi, "");
  for (let start = body.indexOf("{"); start !== -1; start = body.indexOf("{", start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < body.length; i++) {
      const ch = body[i];
      if (inString) {
        if (ch === "\\") i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === "{") depth++;
      else if (ch === "}" && --depth === 0) {
        try {
          const value = JSON.parse(body.slice(start, i + 1));
          if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
        } catch {
          /* try the next opening brace */
        }
        break;
      }
    }
  }
  return undefined;
}

/**
 * What to show while a ReAct reply is still streaming: the reasoning so far, and the answer once
 * "Final Answer:" has appeared (never the raw Action lines).
 */
export function reactDisplay(text: string): { reasoning: string; answer: string } {
  const final = FINAL.exec(text);
  const head = final ? text.slice(0, final.index) : text;
  const reasoning = head
    .split("\n")
    .map((l) => l.replace(/^\s*Thought\s*:\s*/i, "").trim())
    .filter((l) => l && !/^(Action|Action Input|Observation)\s*:/i.test(l))
    .join("\n");
  return { reasoning, answer: final ? final[1].trimStart() : "" };
}

/**
 * A finished ReAct step, read once for the loop that runs it and the transcript that shows it: the
 * answer (a final one only), the thought, the action as the one tool call it makes, or why it cannot
 * be read (the model gets that back as its observation).
 */
export function readReactStep(
  stepId: string,
  text: string,
): { answer: string; thought: string; calls: ToolCall[]; error?: string } {
  const step = parseReact(text);
  return {
    answer: step.kind === "final" ? step.answer : "",
    thought: step.thought,
    calls:
      step.kind === "action"
        ? [
            {
              // reactCallId (shared/chat/client-steps.ts), written out: importing it here splits that file
              // into a chunk of its own, which the tool runtime then loads too.
              id: `react_${stepId}`,
              type: "function",
              function: { name: step.tool, arguments: JSON.stringify(step.input) },
            },
          ]
        : [],
    error: step.kind === "invalid" ? step.error : undefined,
  };
}
