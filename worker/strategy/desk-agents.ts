import { parseToolInput, toOpenAITool } from "../../shared/tools/tool.ts";
import type { DeskMessage, DeskRole, MeteredLlm } from "./desk-llm.ts";
import { applyEdit, edit, readLines, readPart, submitReview } from "./desk-tools.ts";
import type { Span } from "../../shared/admin/desk-records.ts";
import { inSpan } from "./desk-trace.ts";

/** The strategy desk: an agent that did not call its required tool is asked again, at most twice. */
export const TOOL_RETRIES = 2;
/** Completions per editor attempt (reads, edits, the closing line). */
const EDITOR_STEPS = 8;

const EDITOR_TOOLS = [toOpenAITool(readPart), toOpenAITool(edit)];
const REVIEW_TOOLS = [toOpenAITool(submitReview)];

export type EditorResult = { ok: true; text: string; attempts: number } | { ok: false; reason: string };

/**
 * Agent A or B: edits a working copy of `original` with read_part and edit until it answers
 * without a tool call. An attempt that never made a successful edit is retried from the original.
 */
export async function runEditor(
  llm: MeteredLlm,
  parent: Span,
  role: Extract<DeskRole, "strategies" | "guidance">,
  system: string,
  original: string,
): Promise<EditorResult> {
  const agent = role === "strategies" ? "A" : "B";
  return inSpan(parent, `agent ${agent}: ${role}`, "agent", {}, async (span) => {
    for (let attempt = 1; attempt <= 1 + TOOL_RETRIES; attempt++) {
      let working = original;
      let edited = false;
      const messages: DeskMessage[] = [
        { role: "system", content: system },
        { role: "user", content: `Edit the ${role} text now.` },
      ];
      for (let step = 0; step < EDITOR_STEPS; step++) {
        const out = await llm.complete(span, { role, messages, tools: EDITOR_TOOLS });
        messages.push({
          role: "assistant",
          content: out.content || null,
          ...(out.toolCalls.length ? { tool_calls: out.toolCalls } : {}),
        });
        if (!out.toolCalls.length) break;
        for (const call of out.toolCalls) {
          const observation = await inSpan(span, call.function.name, "tool", { attempt }, async (tool) => {
            const result = runEditorTool(working, call.function.name, call.function.arguments);
            if (result.text !== undefined) {
              working = result.text;
              edited = true;
            }
            tool.ok = result.ok;
            return result.observation;
          });
          messages.push({ role: "tool", tool_call_id: call.id, content: observation });
        }
      }
      if (edited) {
        Object.assign(span.attrs, { attempts: attempt, changed: working !== original });
        return { ok: true, text: working, attempts: attempt };
      }
      span.children.push({
        name: "retry: edit was not called",
        kind: "tool",
        startedAt: Date.now(),
        ms: 0,
        ok: false,
        attrs: { attempt },
        children: [],
      });
    }
    span.ok = false;
    return { ok: false, reason: `agent ${agent} (${role}) never called edit in ${1 + TOOL_RETRIES} attempts` };
  });
}

function runEditorTool(
  working: string,
  name: string,
  args: string,
): { ok: boolean; observation: string; text?: string } {
  if (name === readPart.name) {
    const input = parseToolInput(readPart, args);
    if (!input.ok) return { ok: false, observation: input.error };
    return { ok: true, observation: readLines(working, input.value.start_line, input.value.end_line) };
  }
  if (name === edit.name) {
    const input = parseToolInput(edit, args);
    if (!input.ok) return { ok: false, observation: input.error };
    const outcome = applyEdit(working, input.value);
    if (!outcome.ok) return { ok: false, observation: outcome.observation };
    return {
      ok: true,
      text: outcome.text,
      observation: `Edited (${outcome.replaced} replaced). The working copy now reads:\n${readLines(outcome.text)}`,
    };
  }
  return { ok: false, observation: `There is no tool ${name}; use read_part or edit.` };
}

export type Review = { score: number; reasons: string; suggestions: string };

/** Agent C: scores the diff through submit_review; an answer without it is retried, at most twice. */
export async function runReviewer(llm: MeteredLlm, parent: Span, system: string): Promise<Review | { error: string }> {
  return inSpan(parent, "agent C: review", "agent", {}, async (span) => {
    for (let attempt = 1; attempt <= 1 + TOOL_RETRIES; attempt++) {
      const messages: DeskMessage[] = [
        { role: "system", content: system },
        { role: "user", content: "Review the changes now." },
      ];
      const out = await llm.complete(span, {
        role: "review",
        messages,
        tools: REVIEW_TOOLS,
        toolChoice: submitReview.name,
      });
      const call = out.toolCalls.find((c) => c.function.name === submitReview.name);
      const input = call && parseToolInput(submitReview, call.function.arguments);
      if (input?.ok) {
        Object.assign(span.attrs, { score: input.value.score, attempts: attempt });
        return { score: input.value.score, reasons: input.value.reasons, suggestions: input.value.suggestions ?? "" };
      }
      span.children.push({
        name: "retry: submit_review was not called",
        kind: "tool",
        startedAt: Date.now(),
        ms: 0,
        ok: false,
        attrs: { attempt, error: input && !input.ok ? input.error : null },
        children: [],
      });
    }
    span.ok = false;
    return { error: `agent C never called submit_review in ${1 + TOOL_RETRIES} attempts` };
  });
}
