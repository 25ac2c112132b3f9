import { describe, expect, it } from "vitest";
import type { ToolCall } from "../../../shared/chat/chat.ts";
import { TOOLS } from "../../../shared/tools/index.ts";
import { executeToolCalls, type ExecutorOptions } from "../../../widget/agent/executor.ts";

const call = (name: string, args: unknown, id = name): ToolCall => ({
  id,
  type: "function",
  function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
});

function options(over: Partial<ExecutorOptions> = {}): ExecutorOptions {
  return { tools: TOOLS, clientImpls: {}, runEdge: async () => ({ hits: [] }), timeoutMs: 1000, ...over };
}

describe("executeToolCalls", () => {
  it("runs independent calls in parallel: both start before either ends", async () => {
    const events: string[] = [];
    const runEdge = async (name: string) => {
      events.push(`start ${name}`);
      await new Promise((r) => setTimeout(r, 20));
      events.push(`end ${name}`);
      return { ok: name };
    };
    const results = await executeToolCalls(
      [call("knowledge_search", { query: "a" }), call("web_search", { query: "b" })],
      options({ runEdge }),
    );
    expect(events.slice(0, 2)).toEqual(["start knowledge_search", "start web_search"]);
    expect(results.map((r) => [r.outcome, r.observation])).toEqual([
      ["ok", '{"ok":"knowledge_search"}'],
      ["ok", '{"ok":"web_search"}'],
    ]);
    expect(results.every((r) => r.side === "edge" && r.ms >= 0)).toBe(true);
  });

  it("turns invalid arguments into an observation naming the field, without running the tool", async () => {
    let ran = false;
    const [r] = await executeToolCalls(
      [call("knowledge_search", { query: 42 })],
      options({ runEdge: async () => (ran = true) }),
    );
    expect(ran).toBe(false);
    expect(r.outcome).toBe("invalid");
    expect(r.observation).toMatch(/Invalid arguments for knowledge_search: query: .*string/);
  });

  it("turns arguments that are not JSON into an observation asking for JSON", async () => {
    const [r] = await executeToolCalls([call("knowledge_search", "{query:")], options());
    expect(r).toMatchObject({ outcome: "invalid" });
    expect(r.observation).toContain("not valid JSON");
  });

  it("times a tool out, and a thrown error becomes an observation", async () => {
    const results = await executeToolCalls(
      [call("knowledge_search", { query: "slow" }, "a"), call("web_search", { query: "boom" }, "b")],
      options({
        timeoutMs: 30,
        runEdge: (name) =>
          name === "web_search" ? Promise.reject(new Error("search is down")) : new Promise(() => {}),
      }),
    );
    expect(results[0]).toMatchObject({ outcome: "timeout" });
    expect(results[0].observation).toContain("timed out");
    expect(results[1]).toMatchObject({
      outcome: "error",
      observation: "web_search failed: search is down. Continue without it.",
    });
  });

  it("answers an unknown tool with the list of available ones", async () => {
    const [r] = await executeToolCalls(
      [call("delete_everything", {})],
      options({ tools: { web_search: TOOLS.web_search } }),
    );
    expect(r).toMatchObject({
      outcome: "unknown",
      observation: "Unknown tool delete_everything. Available tools: web_search.",
    });
  });

  it("stops pending tools when the visitor aborts", async () => {
    const ctrl = new AbortController();
    const pending = executeToolCalls(
      [call("knowledge_search", { query: "x" })],
      options({ signal: ctrl.signal, runEdge: () => new Promise(() => {}) }),
    );
    ctrl.abort();
    expect((await pending)[0].outcome).toBe("aborted");
  });
});
