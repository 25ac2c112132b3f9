import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import type { AgentConfigInput } from "../../../shared/config/agent-config.ts";
import { auth, call, openSession } from "../../helpers/worker/client.ts";
import { putSite } from "../../helpers/worker/sites.ts";
import { sessionRoom } from "../../../worker/objects.ts";

/**
 * The agent raises its stage's lead card in the chat (offer_lead_card): the worker writes which card,
 * from the agent's config; the visitor's details and consent come only from the card's own route.
 */
const label = (en: string) => ({ en, "zh-CN": en });
const VARS = { LLM_BASE_URL: "https://provider.test/v1", LLM_API_KEY: "sk-test" } as Record<string, string>;

afterEach(() => vi.restoreAllMocks());

async function salesAgent(withLead = true) {
  const id = `sales-${crypto.randomUUID().slice(0, 8)}`;
  const agent: AgentConfigInput = {
    id,
    name: label("Sales"),
    description: label(""),
    greeting: label("Hi"),
    systemPrompt: "You help visitors choose a plan.",
    model: "gpt-4o-mini",
    stages: [
      {
        id: "qualify",
        name: label("Qualify"),
        order: 1,
        instruction: "Raise the lead card when the visitor wants to be contacted.",
        fields: [{ key: "need", label: label("Need"), type: "string" }],
        next: null,
        transition: "user_confirm",
        actionCards: withLead
          ? [
              {
                id: "lead",
                type: "modal",
                lead: true,
                title: label("Talk to our team"),
                form: [
                  { key: "name", label: label("Name"), type: "string" },
                  { key: "email", label: label("E-mail"), type: "string" },
                  { key: "company", label: label("Company"), type: "string" },
                  { key: "consent", label: label("You may contact me"), type: "enum", options: ["no", "yes"] },
                ],
              },
            ]
          : [],
      },
    ],
  };
  await env.CONFIG.put(`agent:${id}`, JSON.stringify(agent));
  const siteKey = await putSite({ agents: [id] });
  const s = await openSession(id, VARS, { siteKey });
  const post = async (path: string, json: unknown) => {
    const r = await call(path, { method: "POST", headers: auth(s.token), json }, VARS);
    const body = (await r.res.json()) as any;
    await r.done();
    return { status: r.res.status, body };
  };
  return { s, post, state: () => sessionRoom(env, s.sessionId).getState() };
}

describe("offer_lead_card", () => {
  it("is offered while the stage has a lead card, raises it in the chat, and the card's send is the lead", async () => {
    const { s, post, state } = await salesAgent();
    expect(s.agent.tools).toContain("offer_lead_card");
    const sent: any[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (_input, init) => {
      sent.push(JSON.parse(String(init?.body)));
      const message = { role: "assistant", content: "ok" };
      return Response.json({
        id: "c",
        object: "chat.completion",
        choices: [{ index: 0, message, finish_reason: "stop" }],
      });
    });
    const turn = await post("/v1/chat/completions", {
      messages: [{ id: crypto.randomUUID(), role: "user", content: "Can someone from sales call me?" }],
    });
    expect(turn.status).toBe(200);
    expect(sent[0].tools.map((t: any) => t.function.name)).toContain("offer_lead_card");
    vi.restoreAllMocks();

    const raised = await post("/v1/tools/offer_lead_card", { arguments: {} });
    expect(raised.status).toBe(200);
    expect(raised.body.events).toEqual([
      expect.objectContaining({ type: "lead.offered", data: { stageId: "qualify", cardId: "lead" } }),
    ]);
    expect(raised.body.result.instruction).toMatch(/do not ask for these details in the chat/);
    expect((await state()).leads).toEqual([{ stageId: "qualify", cardId: "lead", at: raised.body.events[0].at }]);

    // What the visitor sends in the card: the card's action, stored with their consent, after the offer.
    const lead = { name: "Ada Lovelace", email: "ada@example.com", company: "Analytical Ltd", consent: "yes" };
    const action = await post(`/v1/sessions/${s.sessionId}/actions/lead`, { stageId: "qualify", result: lead });
    expect(action.status).toBe(200);
    const stored = (await state()).actions.at(-1)!;
    expect(stored).toMatchObject({ stageId: "qualify", cardId: "lead", result: lead });
    expect(stored.at).toBeGreaterThanOrEqual(raised.body.events[0].at);
  });

  it("is neither offered nor callable for an agent without a lead card; a browser cannot raise one", async () => {
    const { s, post, state } = await salesAgent(false);
    expect(s.agent.tools).not.toContain("offer_lead_card");
    const refused = await post("/v1/tools/offer_lead_card", { arguments: {} });
    expect([refused.status, refused.body.error.code]).toEqual([403, "forbidden"]);
    const forged = await post(`/v1/sessions/${s.sessionId}/events`, {
      events: [{ id: "x", at: 1, type: "lead.offered", data: { stageId: "qualify", cardId: "lead" } }],
    });
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(forged.status).toBeLessThan(500);
    expect((await state()).leads ?? []).toEqual([]);
  });
});
