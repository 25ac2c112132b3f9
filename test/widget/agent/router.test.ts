import { describe, expect, it } from "vitest";
import { AgentConfig } from "../../../shared/config/agent-config.ts";
import type { ChatMessage } from "../../../shared/chat/chat.ts";
import { classifyIntent } from "../../../shared/tools/classify-intent.ts";
import type { Complete } from "../../../widget/agent/completion.ts";
import { routeTurn, type RouteOptions } from "../../../widget/agent/router.ts";
import { medicalQaScript, PRESET_AGENTS } from "../../../worker/demo/index.ts";
import { scriptedModel, sleep, type ScriptedModelLog } from "../../helpers/scripted-model.ts";

const router = AgentConfig.parse(PRESET_AGENTS["medical-qa"]).router!;
let n = 0;
const newId = () => `r${++n}`;

function options(text: string, over: Partial<RouteOptions> = {}) {
  const log: ScriptedModelLog[] = [];
  const events: string[] = [];
  const complete = scriptedModel(medicalQaScript, { tools: ["knowledge_search", "web_search", "ask_followup"], log });
  const opts: RouteOptions = {
    router,
    classifier: classifyIntent,
    history: [{ id: "u", role: "user", content: text }] as ChatMessage[],
    complete: async (req) => {
      events.push(`complete:${req.purpose}`);
      const r = await complete(req);
      events.push(`done:${req.purpose}`);
      return r;
    },
    runEdge: async (name) => {
      events.push(`tool:${name}`);
      await sleep(5);
      return name === "knowledge_search"
        ? { hits: [{ title: "Ibuprofen and paracetamol together", text: "can be taken together" }] }
        : { results: [] };
    },
    newId,
    runLoop: async () => {
      events.push("loop");
      return { end: "complete", added: [], steps: [] };
    },
    ...over,
  };
  return { opts, log, events };
}

describe("routeTurn", () => {
  it("answers a medicine question by the quick path, retrieval started before the classification ends", async () => {
    let sources = "";
    const { opts, events } = options("Can I take ibuprofen with paracetamol?");
    const inner = opts.complete;
    opts.complete = (req) => ((sources = req.sources ?? sources), inner(req));
    const result = await routeTurn(opts);
    expect(result.decision).toMatchObject({ route: "quick", intent: "medicine_info" });
    expect(events.indexOf("tool:knowledge_search")).toBeLessThan(events.indexOf("done:classify"));
    expect(events).toContain("complete:quick");
    expect(events).not.toContain("loop");
    expect(sources).toContain("[knowledge] Ibuprofen and paracetamol together");
    expect(String(result.added[0].content)).toContain("ibuprofen");
  });

  it("waits for the decision before retrieving when not speculative", async () => {
    const { opts, events } = options("Can I take ibuprofen with paracetamol?", { speculative: false });
    await routeTurn(opts);
    expect(events.indexOf("tool:knowledge_search")).toBeGreaterThan(events.indexOf("done:classify"));
  });

  it("sends an emergency to the agent loop", async () => {
    const { opts, events } = options("I have chest pain and my left arm is numb");
    const result = await routeTurn(opts);
    expect(result.decision).toMatchObject({ route: "loop", intent: "emergency" });
    expect(events).toContain("loop");
    expect(events).not.toContain("complete:quick");
  });

  it("takes the loop when the classification fails or is unsure (the conservative default)", async () => {
    const failing = options("Can I take ibuprofen with paracetamol?");
    const inner = failing.opts.complete;
    failing.opts.complete = (req) =>
      req.purpose === "classify" ? Promise.reject(new Error("provider down")) : inner(req);
    expect((await routeTurn(failing.opts)).decision).toMatchObject({ route: "loop", intent: "unclear" });

    const unsure = options("something vague");
    expect((await routeTurn(unsure.opts)).decision.route).toBe("loop");
  });

  it("still answers when every retrieval tool fails, telling the model so", async () => {
    let sources = "";
    const { opts } = options("How much water should I drink a day?", {
      runEdge: () => Promise.reject(new Error("down")),
    });
    const inner = opts.complete;
    opts.complete = (req) => ((sources = req.sources ?? sources), inner(req));
    const result = await routeTurn(opts);
    expect(result.end).toBe("complete");
    expect(sources).toContain("unavailable");
    expect(String(result.added[0].content)).toContain("litres");
  });
});
