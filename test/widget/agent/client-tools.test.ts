import { describe, expect, it } from "vitest";
import { recordAdvice } from "../../../shared/tools/record-advice.ts";
import { createClientTools } from "../../../widget/agent/client-tools.ts";
import { executeToolCalls } from "../../../widget/agent/executor.ts";

describe("record_advice in the browser with the advice guard", () => {
  const run = (guarded: boolean, args: Record<string, unknown>) => {
    const shown: unknown[] = [];
    const clientImpls = createClientTools({ messageId: () => "m1", onAdvice: (a) => shown.push(a), guarded });
    const call = {
      id: "c1",
      type: "function" as const,
      function: { name: "record_advice", arguments: JSON.stringify(args) },
    };
    return executeToolCalls([call], {
      tools: { record_advice: recordAdvice },
      clientImpls,
      runEdge: async () => null,
    }).then(([r]) => ({ r, shown }));
  };
  const args = { title: "t", content: "c", severity: "info", category: "skin", evidence: [] };

  it("sends a card without evidence back to the model as the observation, and shows nothing", async () => {
    const { r, shown } = await run(true, args);
    expect(r.observation).toMatch(/Add the evidence .* or do not record it/);
    expect(shown).toEqual([]);
  });

  it("shows the card when the agent has no advice guard", async () => {
    const { shown } = await run(false, args);
    expect(shown).toHaveLength(1);
  });
});
