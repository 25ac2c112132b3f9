import { OWN_WORDS } from "../strategy/carried-text.ts";
import type { DeskCompletion, DeskRequest } from "../strategy/desk-llm.ts";
import { DEMO_MODEL } from "./demo-upstream.ts";
import { countTokens } from "./demo-model.ts";

/**
 * The strategy desk's scripted model (demo mode, tests, bench:desk). Like the chat's demo model it
 * reads only the request: the requests and the reviewer's suggestions are in the compiled prompt,
 * the diff in the reviewer's. Scripted outcomes:
 * - "pushy" / "price" (the sales coach demo): A's first edit scores 70 (C asks for more), the
 *   second loop's passes at 90;
 * - "rhyme": A makes every answer rhyme, C scores 35 three times, the run fails and rolls back;
 * - anything else: A adds the first request as a strategy line, word for word (as a weak model does),
 *   B a check; C passes it at 85. A visitor's words carried verbatim fail the worker's own check, and
 *   the editors are told to use their own words: then A adds a general line instead.
 */
const PRICE_OLD = "- Close on price: mention the launch discount early and ask for an order in this meeting.";
const PRICE_FIRST = "- Mention price only when the customer asks.";
const PRICE_BETTER =
  "- Do not push on price: bring up the launch discount only when the customer asks about cost, and never " +
  "ask for an order in a first meeting.";
const C_SUGGESTS =
  "Also say that the rep never asks for an order in a first meeting, and keep the launch discount for when " +
  "the customer asks about cost.";

const IN_OWN_WORDS =
  "- When a visitor says a reply missed what they needed, ask one short question about it, then answer that.";

type Call = { name: string; arguments: Record<string, unknown> };

/** The first request of the compiled prompt: an owner's note, else a visitor's quoted text (requests-text.ts). */
function firstRequest(prompt: string): { text: string; visitor: boolean } {
  const note = /^- (.+?) \(from the site owner\)$/m.exec(prompt)?.[1];
  if (note) return { text: note, visitor: false };
  const quoted = /^ {3}request: (".*")$/m.exec(prompt)?.[1];
  return { text: quoted ? (JSON.parse(quoted) as string) : "follow the visitor's request", visitor: true };
}

function lastLine(text: string): string {
  return (
    text
      .split("\n")
      .filter((l) => l.trim())
      .at(-1) ?? ""
  );
}

/** The working copy as the last read_part or edit showed it (lines `n| text`). */
function workingCopy(req: DeskRequest): string {
  const seen =
    req.messages
      .filter((m) => m.role === "tool")
      .map((m) => m.content ?? "")
      .at(-1) ?? "";
  const body = seen.includes("now reads:\n") ? seen.slice(seen.indexOf("now reads:\n") + 11) : seen;
  return body
    .split("\n")
    .filter((l) => /^\d+\| /.test(l))
    .map((l) => l.replace(/^\d+\| /, ""))
    .join("\n");
}

function editorStep(req: DeskRequest, prompt: string): { content: string; calls: Call[] } {
  const step = req.messages.filter((m) => m.role === "assistant").length;
  if (step === 0) return { content: "", calls: [{ name: "read_part", arguments: {} }] };
  if (step > 1) return { content: "Done: the text now answers the requests.", calls: [] };
  const text = workingCopy(req);
  const strategies = req.role === "strategies";
  const request = firstRequest(prompt);
  if (strategies && /pushy|price/.test(prompt) && text.includes(PRICE_OLD)) {
    return {
      content: "",
      calls: [
        {
          name: "edit",
          arguments: { old_text: PRICE_OLD, new_text: prompt.includes("first meeting") ? PRICE_BETTER : PRICE_FIRST },
        },
      ],
    };
  }
  if (strategies && prompt.includes("rhyme")) {
    const line = lastLine(text);
    return {
      content: "",
      calls: [
        {
          name: "edit",
          arguments: line
            ? { old_text: line, new_text: `${line}\n- Answer every question in rhyme.` }
            : { old_text: "", new_text: "- Answer every question in rhyme." },
        },
      ],
    };
  }
  const ownWords = request.visitor && prompt.includes(OWN_WORDS);
  const added = !strategies
    ? "- Check the reply follows the updated strategies."
    : ownWords
      ? IN_OWN_WORDS
      : `- ${request.text}`;
  const line = lastLine(text);
  return {
    content: "",
    calls: [
      {
        name: "edit",
        arguments: line ? { old_text: line, new_text: `${line}\n${added}` } : { old_text: "", new_text: added },
      },
    ],
  };
}

function reviewCall(prompt: string): Call {
  if (prompt.includes("rhyme")) {
    return {
      name: "submit_review",
      arguments: {
        score: 35,
        reasons: "Rhyming answers would hurt clarity and could blur compliance.",
        suggestions: "Drop the rhyme; keep answers plain.",
      },
    };
  }
  if (prompt.includes(`+${PRICE_FIRST}`)) {
    return {
      name: "submit_review",
      arguments: {
        score: 70,
        reasons: "Price now waits for the customer, but asking for an order in the first meeting is still pushy.",
        suggestions: C_SUGGESTS,
      },
    };
  }
  return {
    name: "submit_review",
    arguments: {
      score: prompt.includes(`+${PRICE_BETTER}`) ? 90 : 85,
      reasons: "The change answers the requests and leaves the rest as it was.",
      suggestions: "",
    },
  };
}

function judgeCall(prompt: string): Call {
  const a = /Reply A:\n([\s\S]*?)\n\nReply B:/.exec(prompt)?.[1] ?? "";
  const b = /Reply B:\n([\s\S]*?)\n\nCall judge_replies/.exec(prompt)?.[1] ?? "";
  return {
    name: "judge_replies",
    arguments:
      a.trim() === b.trim()
        ? { better: "same", reason: "The replies say the same." }
        : { better: "B", reason: "Reply B follows the requests." },
  };
}

export async function deskDemoModel(req: DeskRequest, ms: number): Promise<DeskCompletion> {
  if (ms > 0) await new Promise((r) => setTimeout(r, ms));
  const prompt = req.messages.find((m) => m.role === "system")?.content ?? "";
  const { content, calls } =
    req.role === "review"
      ? { content: "", calls: [reviewCall(prompt)] }
      : req.role === "judge"
        ? { content: "", calls: [judgeCall(prompt)] }
        : editorStep(req, prompt);
  const toolCalls = calls.map((c, i) => ({
    id: `desk_${crypto.randomUUID().slice(0, 8)}_${i}`,
    type: "function" as const,
    function: { name: c.name, arguments: JSON.stringify(c.arguments) },
  }));
  const promptTokens = req.messages.reduce((n, m) => n + countTokens(m.content ?? ""), 0);
  return {
    content,
    toolCalls,
    promptTokens,
    completionTokens: countTokens(content) + countTokens(JSON.stringify(calls)),
    model: DEMO_MODEL,
  };
}
