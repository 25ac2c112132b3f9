import { z } from "zod/mini";
import { defineTool } from "../../shared/tools/tool.ts";

/**
 * The strategy desk agents' tools: editors read and edit a working copy; the reviewer and the
 * judge answer through a tool, so their verdict is structured and validated, never parsed prose.
 */
export const readPart = defineTool({
  name: "read_part",
  runsOn: "edge",
  description:
    "Read your working copy, with line numbers; give start_line and end_line (1-based, inclusive) for a " +
    "part, or nothing for all of it.",
  input: z.object({
    start_line: z.optional(z.int().check(z.gte(1))),
    end_line: z.optional(z.int().check(z.gte(1))),
  }),
});

export const edit = defineTool({
  name: "edit",
  runsOn: "edge",
  description:
    "Replace old_text in your working copy by new_text. old_text must match exactly and once, unless " +
    "replace_all is true; an empty old_text writes new_text into an empty copy.",
  input: z.object({
    old_text: z.string().check(z.maxLength(20_000)),
    new_text: z.string().check(z.maxLength(20_000)),
    replace_all: z.optional(z.boolean()),
  }),
});

export const submitReview = defineTool({
  name: "submit_review",
  runsOn: "edge",
  description:
    "Submit your review of the changes: a score from 0 to 100 (80 or more passes), your reasons, and " +
    "suggestions the editors can follow.",
  input: z.object({
    score: z.int().check(z.gte(0), z.lte(100)),
    reasons: z.string().check(z.maxLength(4000)),
    suggestions: z.optional(z.string().check(z.maxLength(4000))),
  }),
});

export const judgeReplies = defineTool({
  name: "judge_replies",
  runsOn: "edge",
  description: "Say which reply serves the visitor better: A (current prompts), B (candidate), or same.",
  input: z.object({ better: z.enum(["A", "B", "same"]), reason: z.string().check(z.maxLength(2000)) }),
});

export type EditOutcome = { ok: true; text: string; replaced: number } | { ok: false; observation: string };

/**
 * One edit of a working copy. A missing or ambiguous old_text is an observation for the model to
 * act on (read the part, quote more context), not an error that ends the run.
 */
export function applyEdit(
  text: string,
  input: { old_text: string; new_text: string; replace_all?: boolean },
): EditOutcome {
  const { old_text: oldText, new_text: newText, replace_all: all } = input;
  if (oldText === "") {
    return text === ""
      ? { ok: true, text: newText, replaced: 1 }
      : {
          ok: false,
          observation:
            "old_text is empty, but the working copy is not: quote the text to replace (read_part shows it).",
        };
  }
  const count = text.split(oldText).length - 1;
  if (count === 0)
    return {
      ok: false,
      observation:
        "old_text was not found in the working copy. It must match exactly, spaces and line breaks " +
        "included; read_part shows the current text.",
    };
  if (count > 1 && !all)
    return {
      ok: false,
      observation:
        `old_text occurs ${count} times in the working copy. Quote more of the surrounding text so it matches ` +
        "once, or set replace_all to change every occurrence.",
    };
  return {
    ok: true,
    text: all ? text.split(oldText).join(newText) : text.replace(oldText, () => newText),
    replaced: all ? count : 1,
  };
}

/** Lines of the working copy, numbered as read_part shows them. */
export function readLines(text: string, start = 1, end?: number): string {
  const lines = text.split("\n");
  const last = Math.min(end ?? lines.length, lines.length);
  if (text === "") return "(the working copy is empty)";
  if (start > last) return `(the working copy has ${lines.length} lines)`;
  return lines
    .slice(start - 1, last)
    .map((l, i) => `${start + i}| ${l}`)
    .join("\n");
}
