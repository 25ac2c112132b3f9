import { describe, expect, it } from "vitest";
import { extractJsonObject, parseReact, reactDisplay } from "../../../widget/agent/strategies/text-react-parse.ts";

describe("parseReact", () => {
  it("reads a clean action", () => {
    expect(
      parseReact('Thought: check the leaflet\nAction: knowledge_search\nAction Input: {"query": "eczema"}'),
    ).toEqual({
      kind: "action",
      thought: "check the leaflet",
      tool: "knowledge_search",
      input: { query: "eczema" },
    });
  });

  it("survives code fences, quotes around the tool name and prose after the JSON", () => {
    const text =
      "Thought: look it up\nAction: `web_search`\nAction " +
      'Input:\n```json\n{"query": "a {b} \\"c\\""}\n```\nI will wait for the ' +
      "result.";
    expect(parseReact(text)).toMatchObject({ kind: "action", tool: "web_search", input: { query: 'a {b} "c"' } });
  });

  it("ignores an observation and answer the model invented after its action", () => {
    const text = 'Action: knowledge_search\nAction Input: {"query":"x"}\nObservation: made up\nFinal Answer: too early';
    expect(parseReact(text)).toMatchObject({ kind: "action", tool: "knowledge_search" });
  });

  it("turns malformed JSON into an invalid step that asks for valid JSON", () => {
    const step = parseReact("Thought: t\nAction: knowledge_search\nAction Input: {query: eczema");
    expect(step.kind).toBe("invalid");
    expect(step.kind === "invalid" && step.error).toContain("valid JSON");
  });

  it("reads a final answer, multi-line", () => {
    expect(parseReact("Thought: done\nFinal Answer: **Yes.**\n\n- one\n- two")).toEqual({
      kind: "final",
      thought: "done",
      answer: "**Yes.**\n\n- one\n- two",
    });
  });

  it("takes a reply with no markers as the answer", () => {
    expect(parseReact("Hello! How can I help?")).toEqual({
      kind: "final",
      thought: "",
      answer: "Hello! How can I help?",
    });
  });

  it("asks again when there is only a thought", () => {
    expect(parseReact("Thought: hmm").kind).toBe("invalid");
  });

  it("finds the first JSON object that parses", () => {
    expect(extractJsonObject('noise {bad} then {"a": [1, {"b": 2}]} tail')).toEqual({ a: [1, { b: 2 }] });
    expect(extractJsonObject("[1,2]")).toBeUndefined();
  });

  it("shows reasoning while streaming and the answer only after Final Answer", () => {
    expect(reactDisplay("Thought: checking\nAction: knowledge_search\nAction Input: {")).toEqual({
      reasoning: "checking",
      answer: "",
    });
    expect(reactDisplay("Thought: ok\nFinal Answer: Hel")).toEqual({ reasoning: "ok", answer: "Hel" });
  });
});
