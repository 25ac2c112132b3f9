import { describe, expect, it } from "vitest";
import { splitThink, ThinkSplitter, fieldReasoning } from "../../../shared/chat/reasoning.ts";
import { finishToolCalls, mergeToolCallDeltas } from "../../../shared/chat/tool-call-deltas.ts";
import { normalizeFinishReason } from "../../../shared/chat/finish-reason.ts";
import type { ToolCall } from "../../../shared/chat/chat.ts";

/** Feeds the pieces one by one and joins what came out, as the widget shows it while streaming. */
function stream(pieces: string[]) {
  const s = new ThinkSplitter();
  const seen: Array<{ reasoning: string; content: string }> = [];
  const all = { reasoning: "", content: "" };
  for (const p of [...pieces.map((x) => s.push(x)), s.end()]) {
    seen.push(p);
    all.reasoning += p.reasoning;
    all.content += p.content;
  }
  return { ...all, seen };
}

describe("think blocks split off the answer as they stream", () => {
  const text = "<think>\nThe rash is itchy, so eczema.\n</think>\n\nIt looks like **eczema**.";

  it("splits at every possible cut of the stream into two and three pieces", () => {
    for (let i = 1; i < text.length; i++) {
      for (const j of [i + 1, i + 7, text.length - 1]) {
        const pieces =
          j > i && j < text.length
            ? [text.slice(0, i), text.slice(i, j), text.slice(j)]
            : [text.slice(0, i), text.slice(i)];
        const out = stream(pieces);
        expect(out.content, `cut at ${i}/${j}`).toBe("It looks like **eczema**.");
        expect(out.reasoning.trim(), `cut at ${i}/${j}`).toBe("The rash is itchy, so eczema.");
      }
    }
  });

  it("never shows part of a tag as the answer while it streams", () => {
    const out = stream(["<th", "ink>Hmm.</th", "ink>Yes", "."]);
    expect(out.seen.map((p) => p.content)).toEqual(["", "", "Yes", ".", ""]);
    expect(out.reasoning).toBe("Hmm.");
  });

  it("reads Gemini's <thought> tags the same way", () => {
    expect(splitThink("<thought>Plan.</thought>Answer")).toEqual({ reasoning: "Plan.", content: "Answer" });
  });

  it("leaves an answer without a block, or with a tag later on, as it is", () => {
    expect(stream(["Use the ", "<think> tag", " in HTML."])).toMatchObject({
      reasoning: "",
      content: "Use the <think> tag in HTML.",
    });
    expect(stream(["<b>bold</b>"])).toMatchObject({ reasoning: "", content: "<b>bold</b>" });
    expect(stream(["<thi"])).toMatchObject({ reasoning: "", content: "<thi" });
  });

  it("keeps an unclosed block as reasoning (a stream cut while thinking)", () => {
    expect(stream(["<think>Still thin", "king"])).toMatchObject({ reasoning: "Still thinking", content: "" });
  });

  it("reads reasoning fields: reasoning_content first, then OpenRouter's reasoning", () => {
    expect(fieldReasoning({ reasoning_content: "a", reasoning: "b" })).toBe("a");
    expect(fieldReasoning({ reasoning_content: null, reasoning: "b" })).toBe("b");
    expect(fieldReasoning({ content: "x" } as object)).toBe("");
  });
});

describe("tool-call deltas of every shape", () => {
  it("joins OpenAI's: id and name first, arguments in pieces by index", () => {
    const calls: ToolCall[] = [];
    mergeToolCallDeltas(calls, [{ index: 0, id: "a", type: "function", function: { name: "f", arguments: "" } }]);
    mergeToolCallDeltas(calls, [
      { index: 0, function: { arguments: '{"x":' } },
      { index: 1, id: "b", function: { name: "g", arguments: "{}" } },
    ]);
    mergeToolCallDeltas(calls, [{ index: 0, id: "", function: { name: null, arguments: "1}" } }]);
    expect(calls.map((c) => [c.id, c.function.name, c.function.arguments])).toEqual([
      ["a", "f", '{"x":1}'],
      ["b", "g", "{}"],
    ]);
  });

  it("joins Gemini's: no index, a new id starts a call", () => {
    const calls: ToolCall[] = [];
    mergeToolCallDeltas(calls, [{ id: "g1", type: "function", function: { name: "f", arguments: '{"a":1}' } }]);
    mergeToolCallDeltas(calls, [{ id: "g2", type: "function", function: { name: "g", arguments: '{"b":' } }]);
    mergeToolCallDeltas(calls, [{ function: { arguments: "2}" } }]);
    expect(calls.map((c) => [c.id, c.function.arguments])).toEqual([
      ["g1", '{"a":1}'],
      ["g2", '{"b":2}'],
    ]);
  });

  it("takes arguments sent as an object, a name repeated on every delta, and names calls without ids", () => {
    const calls: ToolCall[] = [];
    mergeToolCallDeltas(calls, [{ index: 0, function: { name: "f", arguments: { city: "Paris" } } }]);
    mergeToolCallDeltas(calls, [{ index: 0, function: { name: "f" } }]);
    expect(finishToolCalls(calls, "chatcmpl-9")).toEqual([
      { id: "call_chatcmpl-9_0", type: "function", function: { name: "f", arguments: '{"city":"Paris"}' } },
    ]);
  });
});

describe("finish reasons in one spelling", () => {
  it.each([
    ["stop", false, "stop"],
    ["STOP", false, "stop"],
    ["stop", true, "tool_calls"],
    ["max_tokens", false, "length"],
    ["sensitive", false, "content_filter"],
    ["network_error", false, "error"],
    ["function_call", true, "tool_calls"],
    ["something_new", false, "stop"],
  ] as const)("%s (tool calls: %s) is %s", (raw, calls, want) => {
    expect(normalizeFinishReason(raw, calls)).toBe(want);
  });
  it("no finish reason stays none (a stream that broke off)", () =>
    expect(normalizeFinishReason(null, true)).toBeNull());
});
