import { describe, expect, it } from "vitest";
import { AgentConfig } from "../../shared/config/agent-config.ts";
import { upstreamBody } from "../../worker/llm/upstream-body.ts";
import { PRESET_AGENTS } from "../../worker/demo/index.ts";

const agent = (id: string) => AgentConfig.parse(PRESET_AGENTS[id]);
const ask = { messages: [{ role: "user" as const, content: "Can I take ibuprofen?" }] };

describe("upstreamBody", () => {
  it("offers a native agent's tools as OpenAI function schemas, closed to extra properties", () => {
    const body = upstreamBody(ask, agent("derm-consult"));
    const names = body.tools!.map((t) => t.function.name);
    expect(names).toEqual(["knowledge_search", "record_advice", "ask_followup", "analyze_skin_image"]);
    const advice = body.tools![1].function.parameters as any;
    expect(advice.additionalProperties).toBe(false);
    expect(advice.required).toEqual(expect.arrayContaining(["title", "content", "evidence", "severity", "category"]));
    expect(advice.properties.severity.enum).toEqual(["info", "caution", "urgent"]);
  });

  it("gives a text-ReAct agent no tools parameter but the format and the tool list in its prompt", () => {
    const body = upstreamBody(ask, agent("sales-coach"));
    expect(body.tools).toBeUndefined();
    const system = body.messages[0].content as string;
    expect(system).toContain("Action Input:");
    expect(system).toContain("- knowledge_search:");
    expect(system).toContain("Final Answer:");
  });

  it("forces classify_intent with the router's intents for purpose=classify", () => {
    const body = upstreamBody({ ...ask, parley: { purpose: "classify" } }, agent("medical-qa"));
    expect(body.tool_choice).toEqual({ type: "function", function: { name: "classify_intent" } });
    expect(body.tools!.map((t) => t.function.name)).toEqual(["classify_intent"]);
    expect(body.messages[0].content).toContain("medicine_info");
  });

  it("answers from the given sources with no tools for purpose=quick", () => {
    const body = upstreamBody({ ...ask, parley: { purpose: "quick", sources: "PASSAGE-42" } }, agent("medical-qa"));
    expect(body.tools).toBeUndefined();
    expect(body.messages[0].content).toContain("PASSAGE-42");
  });

  it("does not forward a client's own tools or tool_choice", () => {
    const body = upstreamBody(
      { ...ask, tools: [{ type: "function", function: { name: "rm_rf" } }], tool_choice: "required" },
      agent("medical-qa"),
    );
    expect(body.tools!.map((t) => t.function.name)).not.toContain("rm_rf");
    expect(body.tool_choice).toBeUndefined();
  });
});
