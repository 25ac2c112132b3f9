import { describe, expect, it } from "vitest";
import type { ChatChunk } from "../../../shared/chat/chat.ts";
import { asChatChunk, emptyReply, endReply, foldChunk } from "../../../shared/chat/reply-fold.ts";
import { retryAfterMs } from "../../../shared/wire/retry-after.ts";

const delta = (d: ChatChunk["choices"][number]["delta"], finish: string | null = null): ChatChunk => ({
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});

describe("the streamed-chunk fold both sides use", () => {
  it("joins text, tool-call fragments by index, the finish reason and usage", () => {
    const reply = emptyReply();
    const added = [
      foldChunk(reply, delta({ role: "assistant", content: "Let me " })),
      foldChunk(reply, delta({ content: "check." })),
      foldChunk(
        reply,
        delta({ tool_calls: [{ index: 1, id: "c2", type: "function", function: { name: "web_", arguments: "" } }] }),
      ),
      foldChunk(reply, delta({ tool_calls: [{ index: 1, function: { name: "search", arguments: '{"q":' } }] })),
      foldChunk(reply, delta({ tool_calls: [{ index: 1, function: { arguments: '"rash"}' } }] }, "tool_calls")),
      foldChunk(reply, { choices: [], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } }),
    ];
    expect(added).toEqual([true, true, false, false, false, false]);
    expect(reply).toMatchObject({ content: "Let me check.", finishReason: "tool_calls", usage: { total_tokens: 13 } });
    // Index 0 never came: the hole is dropped, the call kept whole.
    const whole = { id: "c2", type: "function", function: { name: "web_search", arguments: '{"q":"rash"}' } };
    expect(endReply(reply).toolCalls).toEqual([whole]);
  });

  it("a null content (tool-call chunks of some providers) adds nothing", () => {
    const reply = emptyReply();
    expect(foldChunk(reply, delta({ content: null }))).toBe(false);
    expect(reply.content).toBe("");
  });

  it("checks a chunk's shape where it enters: only what the fold can read passes", () => {
    expect(
      asChatChunk({ choices: [{ index: 0, delta: { content: "hi" }, finish_reason: null }] })?.choices,
    ).toHaveLength(1);
    expect(asChatChunk({ error: { code: "upstream_error", message: "x" } })).toMatchObject({
      choices: [],
      error: { code: "upstream_error" },
    });
    for (const bad of [
      null,
      "text",
      42,
      [],
      { choices: {} },
      { choices: [7] },
      { choices: [{ delta: { content: 5 } }] },
      { choices: [{ delta: { tool_calls: "x" } }] },
      { choices: [{ delta: { tool_calls: [{ index: "0" }] } }] },
      { choices: [{ delta: { reasoning_content: 3 } }] },
    ]) {
      expect(asChatChunk(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});

describe("Retry-After", () => {
  const now = Date.parse("2026-11-23T12:00:00Z");
  it("reads seconds and HTTP dates as milliseconds from now", () => {
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs(" 1.5 ", now)).toBe(1500);
    expect(retryAfterMs("Mon, 23 Nov 2026 12:00:10 GMT", now)).toBe(10_000);
    expect(retryAfterMs("Mon, 23 Nov 2026 11:00:00 GMT", now)).toBe(0);
  });
  it("is undefined when absent or unreadable", () => {
    for (const v of [null, undefined, "", "soon", "-1"]) expect(retryAfterMs(v, now)).toBeUndefined();
  });
});
